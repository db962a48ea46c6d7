# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.LSTMCell.html (docstring in pytorch/pytorch torch/nn/modules/rnn.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

rnn = nn.LSTMCell(10, 20)  # (input_size, hidden_size)
input = torch.randn(2, 3, 10)  # (time_steps, batch, input_size)
hx = torch.randn(3, 20)  # (batch, hidden_size)
cx = torch.randn(3, 20)
output = []
for i in range(input.size()[0]):
    hx, cx = rnn(input[i], (hx, cx))
    output.append(hx)
output = torch.stack(output, dim=0)
