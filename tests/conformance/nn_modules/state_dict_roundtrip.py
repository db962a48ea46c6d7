# state_dict keys and detached values, load_state_dict's result, copying weights between modules
import torch.nn as nn
torch.manual_seed(0)
a = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
b = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
sd = a.state_dict()
print(list(sd.keys()))
print(sd["0.bias"])
print(b.load_state_dict(sd))
print(b[1].weight)
print(torch.equal(a[0].weight, b[0].weight), b[0].weight.requires_grad)
