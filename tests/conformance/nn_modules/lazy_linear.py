# nn.LazyLinear: in_features from the first input, parameters drawn at the first call (not at
# construction), the module then a Linear; an optimizer made over the uninitialized parameters trains
# the materialized ones; printing before and after; the shape error before the first call.
import torch
from torch import nn

torch.manual_seed(0)
lazy = nn.LazyLinear(3)
print(lazy, lazy.weight, lazy.in_features, lazy.weight.requires_grad)
print(list(lazy.parameters()))
print(lazy.state_dict())
try:
    print(lazy.weight.shape)
except RuntimeError as e:
    print(e)
try:
    lazy.weight + 1
except ValueError:
    print("ValueError")
opt = torch.optim.SGD(lazy.parameters(), lr=0.1)
x = torch.rand(2, 4)
y = lazy(x)
print(lazy, y.grad_fn.name())
y.pow(2).sum().backward()
opt.step()
print(lazy.weight, lazy.bias)
net = nn.Sequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(2, bias=False))
print(net)
out = net(torch.ones(3, 6))
print(net, out.shape)
loss = out.sum()
loss.backward()
net64 = nn.Sequential(nn.LazyLinear(2)).double()
print(net64(torch.ones(1, 2, dtype=torch.float64)).dtype, net64[0].weight.dtype)
