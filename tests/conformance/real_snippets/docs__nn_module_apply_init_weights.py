# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.apply (docstring in pytorch/pytorch torch/nn/modules/module.py; REPL -> script with the imports the page assumes, displayed value -> print)
import torch
import torch.nn as nn

@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))
