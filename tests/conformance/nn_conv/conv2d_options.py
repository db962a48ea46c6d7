# Conv2d with stride, tuple padding, dilation, groups and bias=False: output shapes, printing, gradients of each parameter
import torch.nn as nn
torch.manual_seed(0)
layers = [nn.Conv2d(2, 4, 3, stride=2), nn.Conv2d(2, 4, (3, 2), padding=(1, 0)), nn.Conv2d(2, 2, 2, dilation=2),
          nn.Conv2d(2, 4, 3, groups=2, bias=False), nn.Conv2d(2, 3, 1, stride=(1, 2), padding=1)]
x = torch.rand(2, 2, 7, 6, requires_grad=True)
for conv in layers:
    y = conv(x)
    print(conv, y.shape, y.grad_fn)
    y.sum().backward()
    print(conv.weight.grad.sum(dim=(1, 2, 3)), None if conv.bias is None else conv.bias.grad)
g = x.grad
