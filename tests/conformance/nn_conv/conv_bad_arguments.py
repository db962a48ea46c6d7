# bad convolution arguments: the errors PyTorch raises, with their classes and messages (caught), then one uncaught
import torch.nn as nn
import torch.nn.functional as F
w = torch.ones(4, 3, 3, 3)
tries = [lambda: nn.Conv2d(3, 4, 3, groups=2), lambda: nn.Conv2d(4, 3, 3, groups=2), lambda: nn.Conv2d(4, 4, 3, groups=0),
         lambda: nn.Conv2d(4, 4, 3, padding="same", stride=2),
         lambda: F.conv2d(torch.ones(2, 3, 2, 2), w), lambda: F.conv2d(torch.ones(8, 8), w),
         lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, stride=0), lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, padding=-1),
         lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, torch.ones(3)), lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, groups=2),
         lambda: F.conv2d(torch.ones(2, 3, 5, 5), w.double()), lambda: F.conv2d(torch.ones(2, 3, 5, 5).double(), w),
         lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, padding="same", stride=2), lambda: F.conv1d(torch.ones(2, 3, 5), w),
         lambda: F.conv2d(torch.ones(2, 3, 5, 5), w, padding=1.5)]
for f in tries:
    try:
        f()
    except ValueError as e:
        print("ValueError:", e)
    except RuntimeError as e:
        print("RuntimeError:", e)
    except TypeError as e:
        print("TypeError:", e)
F.conv2d(torch.ones(2, 3, 5, 5), torch.ones(4, 3, 6, 6))
