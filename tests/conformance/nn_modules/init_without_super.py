# a submodule assigned before super().__init__() is PyTorch's AttributeError, at that line of __init__
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
net = Net()
