# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.CosineEmbeddingLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

loss = nn.CosineEmbeddingLoss()
input1 = torch.randn(3, 5, requires_grad=True)
input2 = torch.randn(3, 5, requires_grad=True)
target = torch.ones(3)
output = loss(input1, input2, target)
output.backward()
