# nn.Sequential: print(model), named_parameters() names, indexing, len, parameters as model.0.weight in the tensors
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(model)
print([name for name, p in model.named_parameters()])
print(len(model), model[0], model[-1])
print(model[1:])
x = torch.randn(5, 3)
y = model(x)
loss = y.pow(2).mean()
loss.backward()
print(loss)
