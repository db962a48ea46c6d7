# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Flatten.html (docstring in pytorch/pytorch torch/nn/modules/flatten.py; REPL -> script with the imports the page assumes, displayed values -> print)
import torch
import torch.nn as nn

input = torch.randn(32, 1, 5, 5)
# With default parameters
m = nn.Flatten()
output = m(input)
print(output.size())
# With non-default parameters
m = nn.Flatten(0, 2)
output = m(input)
print(output.size())
