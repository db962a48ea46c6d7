# source: https://github.com/dsingal0/aslOpenVINO/blob/99d9cac75eae38015adf23c6ad8877620b747633/pytorchBlitz/autograd.py (the whole script: blitz autograd, then .grad of the non-leaf y)
import torch
x = torch.ones(2,2,requires_grad=True)
print(x)
y = x+2
print(y)
z = y*y*3
out = z.mean()
out.backward()
print(x.grad)
print(y.grad)
