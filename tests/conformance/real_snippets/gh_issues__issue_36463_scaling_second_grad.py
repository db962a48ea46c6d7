# source: https://github.com/pytorch/pytorch/issues/36463 (issue's first code block, verbatim)
import torch

def f(x):
    return (2 * x).sum()

x = torch.randn(5).requires_grad_()
y = f(x)
dydx = torch.autograd.grad(y, x, create_graph=True)[0]
d2ydx2 = torch.autograd.grad(dydx, x)[0]
