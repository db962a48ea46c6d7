# MaxPool1d: PyTorch's composite for autograd (SqueezeBackward1 over MaxPool2DWithIndicesBackward0 over UnsqueezeBackward0); dilation, indices
import torch.nn as nn
torch.manual_seed(0)
pool = nn.MaxPool1d(3, stride=2, dilation=2)
print(pool)
x = torch.randn(2, 2, 9, requires_grad=True)
y = pool(x)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0], y.grad_fn.next_functions[0][0].next_functions[0][0])
v, i = nn.MaxPool1d(2, return_indices=True)(x[0])
print(v, i)
(y.sum() + v.sum()).backward()
print(x.grad)
