# source: https://github.com/pytorch/pytorch/issues/60027 (issue's To Reproduce, verbatim)
import torch
import torch.nn as nn
x = torch.rand(40, 12, requires_grad=True)
A = nn.Linear(12, 1)
y = A(x)
g, = torch.autograd.grad(inputs=x, outputs=y, grad_outputs=torch.ones_like(y))
g2, = torch.autograd.grad(inputs=g, outputs=y, grad_outputs=torch.ones_like(y))
# Should have panicked here, since g is unused.
