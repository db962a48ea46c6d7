# source: https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.vjp.html (docstring in pytorch/pytorch torch/autograd/functional.py; REPL -> script with the page's import, displayed values -> print)
import torch
from torch.autograd.functional import vjp

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))

print(vjp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))
