# a tensor attribute named like a Tensor method (w.retain_grad = True) hides the method, as the instance __dict__ does in PyTorch; properties stay not writable
import torch
w = torch.ones(2, requires_grad=True)
w.retain_grad = True
print(w.retain_grad)
y = (w * 3).sum()
y.backward()
print(w.grad, w.is_leaf)
v = torch.zeros(3)
v.sum = 7
print(v.sum, torch.sum(v))
try:
    v.sum()
except TypeError as e:
    print(e)
try:
    w.is_leaf = False
except AttributeError as e:
    print(e)
