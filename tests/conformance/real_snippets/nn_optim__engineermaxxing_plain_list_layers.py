# source: https://www.engineermaxxing.com/micro/lessons/pytorch-internals.html (lesson's opening "spot the bug" example, verbatim; imports added)
import torch
import torch.nn as nn
class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [ nn.Linear(64, 32), nn.Linear(32, 10) ] # Bug is HERE
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
model = MyModel()
print(list(model.parameters())) # [] — EMPTY!
