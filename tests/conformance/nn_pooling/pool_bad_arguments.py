# bad pooling arguments: PyTorch's messages (caught), then an output that would be empty (uncaught, kind runtime)
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(1, 2, 5, 5)
tries = [lambda: F.max_pool2d(x, 0), lambda: F.max_pool2d(x, 2, padding=2), lambda: F.max_pool2d(x, 2, dilation=0),
         lambda: F.max_pool2d(torch.ones(5, 5), 2), lambda: F.max_pool2d(x, (2, 2, 2)), lambda: F.max_pool1d(x[0], 0),
         lambda: F.max_pool1d(x[0], 2, padding=2), lambda: F.max_pool1d(x, 2), lambda: F.max_pool1d(x[0], 6),
         lambda: F.avg_pool2d(x, 2, padding=2), lambda: F.avg_pool2d(x, 2, divisor_override=0), lambda: F.avg_pool2d(x[0, 0], 2)]
for f in tries:
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
    except IndexError as e:
        print("IndexError:", e)
y = nn.MaxPool2d(6)(x)
