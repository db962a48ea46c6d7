# SmoothL1Loss(beta) and HuberLoss(delta): values, SmoothL1LossBackward0 / HuberLossBackward0, second derivatives
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(6, requires_grad=True)
t = torch.randn(6)
a = nn.SmoothL1Loss(beta=0.5)(x, t)
b = nn.HuberLoss(reduction="sum", delta=0.7)(x, t)
c = nn.SmoothL1Loss(reduction="none", beta=0.0)(x, t)
print(a, b, c.grad_fn, nn.SmoothL1Loss(), nn.HuberLoss())
g, = torch.autograd.grad(a + b, x, create_graph=True)
print(g, g.grad_fn)
h = (g * g).sum()
h.backward()
