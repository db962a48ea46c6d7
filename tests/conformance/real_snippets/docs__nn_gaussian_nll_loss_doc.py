# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.GaussianNLLLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 2, requires_grad=True)  # heteroscedastic
output = loss(input, target, var)
output.backward()

loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 1, requires_grad=True)  # homoscedastic
output = loss(input, target, var)
output.backward()
