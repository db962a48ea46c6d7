# source: https://docs.pytorch.org/docs/stable/generated/torch.autograd.graph.Node.name.html (docstring in pytorch/pytorch torch/autograd/graph.py; REPL -> script)
import torch
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
print(b.grad_fn.name())
