# double(), float(), to(torch.float64) change the parameters in place (same objects)
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
w = m.weight
r = m.double()
print(r is m, m.weight is w, m.weight.dtype, m.bias.dtype)
y = m(torch.ones(3, 2, dtype=torch.float64))
print(y)
m.to(torch.float32)
print(m.weight.dtype)
y.sum().backward()
