# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.nll_loss.html (docstring in pytorch/pytorch torch/nn/functional.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn.functional as F

# input is of size N x C = 3 x 5
input = torch.randn(3, 5, requires_grad=True)
# each element in target has to have 0 <= value < C
target = torch.tensor([1, 0, 4])
output = F.nll_loss(F.log_softmax(input, dim=1), target)
output.backward()
