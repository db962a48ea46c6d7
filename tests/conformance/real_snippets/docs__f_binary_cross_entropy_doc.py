# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.binary_cross_entropy.html and https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.binary_cross_entropy_with_logits.html (docstrings in pytorch/pytorch torch/nn/functional.py, one after the other; REPL -> script with the imports the pages assume)
import torch
import torch.nn.functional as F

input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2, requires_grad=False)
loss = F.binary_cross_entropy(torch.sigmoid(input), target)
loss.backward()

input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
loss = F.binary_cross_entropy_with_logits(input, target)
loss.backward()
