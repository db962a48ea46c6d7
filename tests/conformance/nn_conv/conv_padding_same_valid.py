# padding='same' (symmetric, and an even kernel that pads the right side first with a warning) and padding='valid'
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
odd = nn.Conv2d(1, 2, 3, padding="same")
even = nn.Conv2d(1, 2, (2, 4), padding="same", bias=False)
valid = nn.Conv1d(1, 1, 3, padding="valid")
print(odd, even, valid)
x = torch.rand(1, 1, 5, 5, requires_grad=True)
a = odd(x)
b = even(x)
print(a.shape, b.shape, b.grad_fn, b.grad_fn.next_functions[0][0])
c = valid(torch.rand(1, 1, 6))
d = F.conv1d(torch.rand(2, 1, 6), torch.ones(1, 1, 4), padding="same")
print(c.shape, d)
(a.sum() + b.sum()).backward()
print(x.grad)
