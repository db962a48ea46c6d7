# class Net(nn.Module): super().__init__(), submodules registered by assignment, forward through __call__
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.scale = 0.5
    def forward(self, x):
        h = F.relu(self.fc1(x))
        return self.fc2(h) * self.scale
net = Net(3)
print(net)
print(net.training, net.scale, net.fc1.out_features)
x = torch.randn(4, 2)
out = net(x)
out.sum().backward()
print([n for n, _ in net.named_parameters()], len(list(net.parameters())))
