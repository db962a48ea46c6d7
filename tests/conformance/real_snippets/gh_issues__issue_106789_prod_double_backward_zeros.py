# source: https://github.com/pytorch/pytorch/issues/106789 (Fix prod double backward when there are 2+ zeros: the code)
import torch

x = torch.tensor([2., 3, 0, 0], requires_grad=True)
y = torch.prod(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
