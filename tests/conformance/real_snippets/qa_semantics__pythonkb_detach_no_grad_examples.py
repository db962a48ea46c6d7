# source: https://pythonkb.com/python-difference-between-detach-and-with-torch-nograd-in-pytorch (Examples 1, 2 and 3 in order)
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**2

z = y.detach()
z *= 3

print(z)

import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3

with torch.no_grad():
    z = y + 5

print(z)

import torch

x = torch.tensor(5.0, requires_grad=True)
y = x**2

with torch.no_grad():
    z = y.detach().sqrt()

print(z)
