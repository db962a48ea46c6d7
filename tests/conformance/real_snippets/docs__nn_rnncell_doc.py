# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.RNNCell.html (docstring in pytorch/pytorch torch/nn/modules/rnn.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

rnn = nn.RNNCell(10, 20)
input = torch.randn(6, 3, 10)
hx = torch.randn(3, 20)
output = []
for i in range(6):
    hx = rnn(input[i], hx)
    output.append(hx)
