# zero_grad() sets .grad to None, zero_grad(set_to_none=False) zeroes it; requires_grad_(False) freezes a layer
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
model[0].requires_grad_(False)
x = torch.randn(4, 3)
model(x).sum().backward()
print(model[0].weight.grad, model[1].weight.grad)
model.zero_grad(set_to_none=False)
print(model[1].weight.grad)
model(x).sum().backward()
model.zero_grad()
print(model[1].bias.grad)
model(x).mean().backward()
