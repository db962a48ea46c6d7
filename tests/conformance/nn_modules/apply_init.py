# model.apply(fn) visits submodules children first; nn.init inside it draws from the random stream
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 2))
seen = []
def init_weights(m):
    seen.append(m)
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)
model.apply(init_weights)
print(seen)
print(model[0].weight, model[2].bias)
