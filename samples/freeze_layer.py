# Freezing a layer: requires_grad_(False) on its parameters keeps their .grad None while the rest trains.
#   gradcli why samples/freeze_layer.py model.0.weight
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
model[0].requires_grad_(False)          # freeze the first layer
x = torch.randn(8, 3)
y = torch.randn(8, 1)
loss = nn.MSELoss()(model(x), y)
loss.backward()
print(model[0].weight.grad, model[2].weight.grad)
with torch.no_grad():                   # one plain SGD step on what still trains
    for p in model.parameters():
        if p.requires_grad:
            p -= 0.1 * p.grad
print(model[2].bias)
