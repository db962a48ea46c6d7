# AvgPool2d: padding counted or not (count_include_pad), divisor_override, ceil_mode; float32 sums are PyTorch's; the gradient spreads grad / divisor
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 5, requires_grad=True)
a = nn.AvgPool2d(2)(x)
b = nn.AvgPool2d(3, stride=2, padding=1)(x)
c = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(x)
d = F.avg_pool2d(x, 2, stride=2, ceil_mode=True, divisor_override=3)
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), a, b, c, d, a.grad_fn)
(a.sum() + 2 * b.sum() + 3 * c.sum() + 4 * d.sum()).backward()
print(x.grad)
