# activation modules: forward values, grad_fn names and print(module)
import torch.nn as nn
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
mods = [nn.ReLU(), nn.LeakyReLU(0.1), nn.ELU(), nn.GELU(), nn.SiLU(), nn.Tanh(), nn.Sigmoid(), nn.Softplus(), nn.Hardtanh(-1.0, 1.0), nn.ReLU6()]
for m in mods:
    y = m(x)
    print(m, y, y.grad_fn)
s = nn.Softmax(dim=0)(x)
ls = nn.LogSoftmax(dim=0)(x)
print(nn.Softmax(dim=0), s, ls)
total = sum(m(x).sum() for m in mods) + s[0] + ls[1]
total.backward()
