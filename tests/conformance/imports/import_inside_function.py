# imports inside a function bind local names; import torch.nn binds torch
def build():
    import torch.nn as nn
    from math import sqrt
    import torch.nn.init
    torch.manual_seed(0)
    layer = nn.Linear(2, 1)
    return layer, sqrt(layer.in_features)
layer, s = build()
print(layer, s)
out = layer(torch.ones(2))
