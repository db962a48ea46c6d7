# source: https://github.com/jihunJeong/deep-learning-application/blob/1cebf38264aca48560d8cc21ed0a291afdd6818c/Pytorch/src/xor_mlp.py (the whole script: class MLP(nn.Module) with an unused nn.Softmax(), CrossEntropyLoss, SGD, 30000 epochs; Epochs shrunk to 3000 because the 30000 take over 200 s in PyTorch on this host)
import torch
from torch import optim
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self):
        super(MLP, self).__init__()
        self.linear1 = nn.Linear(2, 3)
        self.linear2 = nn.Linear(3, 2)

        self.sigmoid = nn.Sigmoid()
        self.softmax = nn.Softmax()

    def forward(self, x):
        x = self.linear1(x)
        x = self.sigmoid(x)
        x = self.linear2(x)
        return x


X = torch.FloatTensor([[0, 0],[0, 1],[1, 0],[1, 1]])
Y = torch.LongTensor([0, 1, 1, 0])


model = MLP()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

Epochs = 3000
for epoch in range(Epochs):
    output = model(X)
    loss = criterion(output, Y)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    if epoch % 1000 == 0:
        print(epoch, loss.item())
