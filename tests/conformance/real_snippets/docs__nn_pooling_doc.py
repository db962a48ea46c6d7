# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.MaxPool1d.html and https://docs.pytorch.org/docs/stable/generated/torch.nn.AvgPool2d.html (docstrings in pytorch/pytorch torch/nn/modules/pooling.py, one after the other; REPL -> script with the imports the pages assume)
import torch
import torch.nn as nn

# pool of size=3, stride=2
m = nn.MaxPool1d(3, stride=2)
input = torch.randn(20, 16, 50)
output = m(input)

# pool of square window of size=3, stride=2
m = nn.AvgPool2d(3, stride=2)
# pool of non-square window
m = nn.AvgPool2d((3, 2), stride=(2, 1))
input = torch.randn(20, 16, 50, 32)
output = m(input)
