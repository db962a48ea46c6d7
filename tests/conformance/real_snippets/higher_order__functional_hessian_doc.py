# source: https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.hessian.html (docstring in pytorch/pytorch torch/autograd/functional.py; REPL -> script with the page's import, displayed values -> print)
import torch
from torch.autograd.functional import hessian

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))

print(hessian(pow_reducer, inputs, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))
