# source: https://github.com/pytorch/pytorch/issues/82017 (Debugger for PyTorch: the reproducing example)
# All necessary imports at the beginning
import torch

# A succinct reproducing example trimmed down to the essential parts:
t = torch.rand(5, 10)  # Note: the bug is here, we should pass requires_grad=True
t.sum().backward()
