# source: https://github.com/pytorch/pytorch/issues/184575 (F.normalize returns ~1e12 gradient at zero-vector input: the minimal reproducer)
import torch
import torch.nn.functional as F

x = torch.zeros(3, requires_grad=True)
y = F.normalize(x, dim=0)
y.sum().backward()

print(f"input:    {x.data}")
print(f"output:   {y.data}")
print(f"gradient: {x.grad}")
print(f"grad finite: {x.grad.isfinite().all().item()}")
print(f"grad max:    {x.grad.abs().max().item():.3e}")
