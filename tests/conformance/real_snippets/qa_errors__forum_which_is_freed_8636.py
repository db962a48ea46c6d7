# source: https://discuss.pytorch.org/t/which-is-freed-which-is-not/8636 (Example2, the one that fails; indentation lost in the page text restored)
import torch
x = torch.nn.Linear(3,3)
a = torch.autograd.Variable(torch.randn(2, 3))
y = torch.sum(x(a))
for i in range(100):
    y.backward()
