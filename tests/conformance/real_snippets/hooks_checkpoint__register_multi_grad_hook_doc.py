# source: https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.graph.register_multi_grad_hook (docstring in pytorch/pytorch torch/autograd/graph.py; REPL -> script)
import torch

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def fn(grads):
    print([g is not None for g in grads])

torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
