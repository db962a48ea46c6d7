# a Conv2d given the wrong number of channels fails inside forward (runtime error at the line in forward)
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
    def forward(self, x):
        return self.conv(x).relu()
net = Net()
y = net(torch.rand(1, 1, 8, 8))
