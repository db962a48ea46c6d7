# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Sequential.html (docstrings of append, insert and extend in pytorch/pytorch torch/nn/modules/container.py; REPL -> script, each result printed)
import torch.nn as nn
n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
print(n.append(nn.Linear(3, 4)))

n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
print(n.insert(0, nn.Linear(3, 4)))

n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
other = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 5))
print(n.extend(other)) # or `n + other`
