# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.modules (docstrings of modules() and named_modules() in pytorch/pytorch torch/nn/modules/module.py; REPL -> script with the imports the page assumes)
import torch.nn as nn

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)
