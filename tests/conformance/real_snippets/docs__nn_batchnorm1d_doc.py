# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.BatchNorm1d.html (docstring in pytorch/pytorch torch/nn/modules/batchnorm.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

# With Learnable Parameters
m = nn.BatchNorm1d(100)
# Without Learnable Parameters
m = nn.BatchNorm1d(100, affine=False)
input = torch.randn(20, 100)
output = m(input)
