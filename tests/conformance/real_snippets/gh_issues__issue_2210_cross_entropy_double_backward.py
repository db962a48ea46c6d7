# source: https://github.com/pytorch/pytorch/issues/2210 ("LogSoftmax can only be differentiated once": the code)
import torch
import torch.nn as nn
from torch.autograd import Variable

x = Variable(torch.rand(10, 2), requires_grad=True)
y = Variable(torch.ones(10).type(torch.LongTensor))
criterion = nn.CrossEntropyLoss()
l = criterion(x, y)
g = torch.autograd.grad(l, x, create_graph=True)
L = l + torch.sum(g[0] * x)
L.backward()
