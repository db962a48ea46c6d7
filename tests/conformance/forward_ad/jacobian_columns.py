# the tutorial's use: one forward pass per basis direction gives the Jacobian's columns
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
W = torch.randn(3, 4)
b = torch.randn(3)


def f(x):
    return torch.tanh(W @ x + b) * 2


x0 = torch.tensor([0.1, -0.2, 0.3, 0.4])
cols = []
with fwAD.dual_level():
    for i in range(4):
        e = torch.zeros(4)
        e[i] = 1.0
        cols.append(fwAD.unpack_dual(f(fwAD.make_dual(x0, e))).tangent)
J = torch.stack(cols, dim=1)
print(J)
print(torch.autograd.functional.jacobian(f, x0))
print(torch.allclose(J, torch.autograd.functional.jacobian(f, x0), atol=1e-6))
