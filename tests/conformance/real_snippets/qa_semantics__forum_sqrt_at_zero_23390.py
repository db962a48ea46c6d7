# source: https://discuss.pytorch.org/t/how-to-fix-gradient-at-0-for-sqrt-function/23390 (the question's two scripts, one after the other)
import torch

a = torch.FloatTensor([0.0, 1.0])
a.requires_grad = True

b = torch.sqrt(a)
b.sum().backward()
print("a has grad", a.requires_grad)
print("a grad", a.grad)
import torch

a = torch.FloatTensor([0.0, 1.0])
a += 1e-4 # add here
a.requires_grad = True

b = torch.sqrt(a)
b.sum().backward()
print("a has grad", a.requires_grad)
print("a grad", a.grad)
