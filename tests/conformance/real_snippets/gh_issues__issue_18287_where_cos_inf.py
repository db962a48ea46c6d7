# source: https://github.com/pytorch/pytorch/issues/18287 (Gradient of torch.where not handling nan correctly; the repro)
import torch
import math

x = torch.tensor([0.0, math.inf], requires_grad=True)
y = torch.where(x < 1.0, torch.cos(x), torch.zeros_like(x))

print(torch.autograd.grad(y.sum(), x))
