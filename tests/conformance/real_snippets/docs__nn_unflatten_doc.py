# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Unflatten.html (docstring in pytorch/pytorch torch/nn/modules/flatten.py: the two Sequential examples; REPL -> script with the imports the page assumes, displayed values -> print)
import torch
import torch.nn as nn

input = torch.randn(2, 50)
# With tuple of ints
m = nn.Sequential(
    nn.Linear(50, 50),
    nn.Unflatten(1, (2, 5, 5))
)
output = m(input)
print(output.size())
# With torch.Size
m = nn.Sequential(
    nn.Linear(50, 50),
    nn.Unflatten(1, torch.Size([2, 5, 5]))
)
output = m(input)
print(output.size())
