# source: https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.hvp.html (docstring in pytorch/pytorch torch/autograd/functional.py; REPL -> script with the page's import, displayed values -> print)
import torch
from torch.autograd.functional import hvp

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))

print(hvp(pow_reducer, inputs, v, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
