# a shape mismatch inside forward is reported at the line in forward
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
    def forward(self, x):
        return self.fc(x)
net = Net()
y = net(torch.randn(4, 5))
