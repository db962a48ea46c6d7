# nn.Flatten(start_dim=1) and nn.Identity inside a Sequential
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Identity(), nn.Linear(6, 2))
print(model)
x = torch.randn(2, 2, 3)
y = model(x)
print(nn.Flatten(0, 1)(x).shape, y.grad_fn)
y.sum().backward()
