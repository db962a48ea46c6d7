# source: https://www.codegenes.net/blog/pytorch-freeze-layer (the first example; indentation lost in the page text restored)
import torch
import torch.nn as nn
# Define a simple neural network
class SimpleNet(nn.Module):
    def __init__(self):
        super(SimpleNet, self).__init__()
        self.fc1 = nn.Linear(10, 20)
        self.fc2 = nn.Linear(20, 1)
    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = self.fc2(x)
        return x
model = SimpleNet()
# Freeze the first fully - connected layer
for param in model.fc1.parameters():
    param.requires_grad = False
# Check if the parameters of fc1 are frozen
for name, param in model.named_parameters():
    print(name, param.requires_grad)
