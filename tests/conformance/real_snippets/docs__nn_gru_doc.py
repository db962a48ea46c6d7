# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.GRU.html (docstring in pytorch/pytorch torch/nn/modules/rnn.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

rnn = nn.GRU(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
