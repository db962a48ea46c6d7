# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.MultiLabelSoftMarginLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

loss = nn.MultiLabelSoftMarginLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, 5).random_(2)
output = loss(input, target)
output.backward()
