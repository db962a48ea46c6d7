# source: https://discuss.pytorch.org/t/multiple-call-to-backward-still-works-when-retain-graph-false-why/9475 (the question's code)
import torch
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)
z = y * y
print(z)
gradient = torch.randn(2, 2)
y.backward(gradient)
print(x.grad)
