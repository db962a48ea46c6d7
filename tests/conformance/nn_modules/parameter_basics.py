# nn.Parameter: prints "Parameter containing:", requires grad even under no_grad, ops give plain tensors
import torch.nn as nn
t = torch.tensor([1.0, 2.0])
p = nn.Parameter(t)
print(p)
print(p.is_leaf, p.requires_grad, isinstance(p, torch.Tensor))
with torch.no_grad():
    q = nn.Parameter(torch.zeros(2))
print(q.requires_grad)
r = nn.Parameter(torch.ones(2), requires_grad=False)
print(r)
y = p * 2
print(y, p.data)
y.sum().backward()
