# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.MultiMarginLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes, the displayed value -> print)
import torch
import torch.nn as nn

loss = nn.MultiMarginLoss()
x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
y = torch.tensor([3])
# 0.25 * ((1-(0.8-0.1)) + (1-(0.8-0.2)) + (1-(0.8-0.4)))
print(loss(x, y))
