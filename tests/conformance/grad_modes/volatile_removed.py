# Tensor.volatile (removed in 0.4): setting it warns and does nothing, reading it warns and gives False
import torch
x = torch.tensor([1.0])
x.volatile = True
print(x.volatile)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.volatile)
