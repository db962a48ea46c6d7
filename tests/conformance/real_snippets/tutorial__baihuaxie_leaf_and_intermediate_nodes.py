# source: https://github.com/baihuaxie/dl-initial (notebook: the "leaf nodes & intermediate nodes", "autograd on a tensor" and "autograd on the output tensor of a layer" cells in order; the cell docstrings kept as strings)
""" leaf nodes & intermediate nodes """

import torch

# leaf node A
a = torch.tensor(1.0, requires_grad=True)
# leaf node B
b = torch.tensor(2.0, requires_grad=True)
# intermediate node C
c = a*b
c.backward()
print(c.grad)
print(a.grad)
print(b.grad)

""" autograd on a tensor """

import torch

x1 = torch.randn((2, 4), requires_grad=True)
x2 = torch.randn((2, 4), requires_grad=True)
y = x1 + x2
y.backward(y)
print(x1.grad)

""" autograd on the output tensor of a layer. """

import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Linear(10, 20),
)
x = torch.randn((2, 10), requires_grad=True)
out = model(x)
out.backward(out)
print(x.grad)
print(out.grad)
