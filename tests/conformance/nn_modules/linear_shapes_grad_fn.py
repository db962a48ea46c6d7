# F.linear inside nn.Linear: AddmmBackward0 for 2-d input with bias, MmBackward0 without, ViewBackward0 for 1-d and 3-d
import torch.nn as nn
torch.manual_seed(1)
lin = nn.Linear(4, 3)
nobias = nn.Linear(4, 3, bias=False)
a = lin(torch.randn(2, 4))
b = nobias(torch.randn(2, 4))
c = lin(torch.randn(4))
d = lin(torch.randn(5, 2, 4))
e = nobias(torch.randn(5, 2, 4))
print(a.grad_fn, b.grad_fn, c.grad_fn, d.grad_fn, e.grad_fn)
print(nobias, nobias.bias)
loss = a.sum() + b.sum() + c.sum() + d.sum() + e.sum()
loss.backward()
