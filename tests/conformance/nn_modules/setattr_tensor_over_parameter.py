# assigning a plain tensor to a registered parameter is PyTorch's TypeError (kind type)
import torch.nn as nn
m = nn.Linear(2, 2)
m.weight = nn.Parameter(torch.zeros(2, 2))
print(m.weight)
m.weight = torch.ones(2, 2)
