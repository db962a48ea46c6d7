# model.eval() is not a grad switch: compare it with no_grad (gradcli modes samples/modes_eval.py)
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.Dropout(0.5))
x = torch.ones(1, 3)
out = model(x)
loss = out.sum()
loss.backward()
print(model[0].weight.grad)
