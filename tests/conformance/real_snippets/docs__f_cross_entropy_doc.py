# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.cross_entropy.html (docstring in pytorch/pytorch torch/nn/functional.py: class-index and class-probability targets; REPL -> script with the imports the page assumes)
import torch
import torch.nn.functional as F

# Example of target with class indices
input = torch.randn(3, 5, requires_grad=True)
target = torch.randint(5, (3,), dtype=torch.int64)
loss = F.cross_entropy(input, target)
loss.backward()

# Example of target with class probabilities
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
loss = F.cross_entropy(input, target)
loss.backward()
