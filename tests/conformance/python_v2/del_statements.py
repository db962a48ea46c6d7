# del of names, list and dict items, module attributes and a tensor's .grad
import torch.nn as nn
x = torch.ones(2, requires_grad=True)
y = x * 2
del y
L = [1, 2, 3]
d = {"a": 1, "b": 2}
del L[0], d["a"]
print(L, d)
x.sum().backward()
del x.grad
print(x.grad)
m = nn.Sequential(nn.ReLU(), nn.Tanh())
del m[0]
print(m)
print(y)
