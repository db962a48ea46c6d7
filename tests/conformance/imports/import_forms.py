# SPEC 2b imports: aliases, several per statement, from-imports of members, math
import torch, torch.nn as nn
import torch.nn.functional as Fn
from torch import nn as tnn, autograd
from torch.autograd import grad, Variable
import math
from math import pi, sqrt as root
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Fn.relu(x * pi).sum()
g, = grad(y, x)
print(g, math.sqrt(16.0), root(2.0), math.exp(1.0), math.log(10), math.floor(2.5), math.isclose(0.1 + 0.2, 0.3))
print(tnn is nn, autograd.grad is grad, nn.Linear is torch.nn.Linear, math.pi == pi, math.inf > 1e308)
v = Variable(torch.ones(2), requires_grad=True)
print(v, v.is_leaf)
z = (v * 2).sum()
