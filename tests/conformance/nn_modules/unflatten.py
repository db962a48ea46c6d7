# Tensor.unflatten / torch.unflatten / nn.Unflatten: ViewBackward0 (also of a non-contiguous input), -1 inferred, PyTorch's messages (empty sizes, a size mismatch, dim out of range, non-tuple sizes, a float element, the module's own TypeErrors), in a Sequential
import torch
import torch.nn as nn
x = torch.ones(2, 6, requires_grad=True) * 1
print(x.unflatten(1, (2, 3)).grad_fn.name(), x.unflatten(-1, (3, -1)).shape, x.t().unflatten(0, (2, 3)).grad_fn.name())
print(x.unflatten(1, torch.Size([6])).shape, torch.unflatten(x, 0, (1, 2)).shape, x.t().unflatten(1, [2, 1]).shape)
for c in [lambda: x.unflatten(1, ()), lambda: x.unflatten(1, (4, 2)), lambda: x.unflatten(2, (2, 3)), lambda: x.unflatten(1, 6), lambda: x.unflatten(1, [2.0, 3]), lambda: nn.Unflatten(1, 5), lambda: nn.Unflatten(1, [2, 'a'])]:
    try:
        c()
    except (RuntimeError, IndexError, TypeError) as e:
        print(e)
u = nn.Unflatten(1, (2, 3))
print(u, u(x).shape, u(x).grad_fn.name(), nn.Unflatten(1, [2, 3]))
m = nn.Sequential(nn.Linear(6, 6), nn.Unflatten(1, (3, 2)))
y = m(x)
print(m, y.shape)
y.sum().backward()
