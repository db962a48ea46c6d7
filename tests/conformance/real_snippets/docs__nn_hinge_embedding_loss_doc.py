# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.HingeEmbeddingLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

loss = nn.HingeEmbeddingLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).sign()
output = loss(input, target)
output.backward()
