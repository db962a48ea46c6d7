# source: https://github.com/pytorch/pytorch/issues/73137 (issue description's code example; `import torch` added)
import torch
x = torch.tensor(1.0, requires_grad=True)
f = 2 * x
g = torch.autograd.grad(f, x, create_graph=True)[0]
g2 = torch.autograd.grad(g, x)[0]
