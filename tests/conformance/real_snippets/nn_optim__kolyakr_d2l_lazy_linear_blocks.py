# source: https://github.com/kolyakr/d2l (notebook on layers and modules, cells In[1]-In[11] in order; each cell's displayed value printed)
import torch
from torch import nn
from torch.nn import functional as F
net = nn.Sequential(
  nn.LazyLinear(256),
  nn.ReLU(),
  nn.LazyLinear(10)
)

X = torch.rand(2, 20)
print(net(X).shape)
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.LazyLinear(256)
        self.out = nn.LazyLinear(10)

    def forward(self, X):
        return self.out(F.relu(self.hidden(X)))
net = MLP()
print(net(X).shape)
class MySequential(nn.Module):
  def __init__(self, *args):
    super().__init__()
    
    for idx, module in enumerate(args):
      self.add_module(str(idx), module)
      
  def forward(self, X):
    for module in self.children():
      X = module(X)
    return X
net = MySequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
print(net(X).shape)
class FixedHiddenMLP(nn.Module):
  def __init__(self):
    super().__init__()
    
    self.rand_weight = torch.rand((20, 20))
    self.linear = nn.LazyLinear(20)
  
  def forward(self, X):
    
    X = self.linear(X)
    X = F.relu(X @ self.rand_weight + 1)
    X = self.linear(X)
    
    while X.abs().sum() > 1:
      X /= 2
    return X.sum()
net = FixedHiddenMLP()
print(net(X))
class NestMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.LazyLinear(64), nn.ReLU(),
                                 nn.LazyLinear(32), nn.ReLU())
        self.linear = nn.LazyLinear(16)

    def forward(self, X):
        return self.linear(self.net(X))

chimera = nn.Sequential(NestMLP(), nn.LazyLinear(20), FixedHiddenMLP())
print(chimera(X))
