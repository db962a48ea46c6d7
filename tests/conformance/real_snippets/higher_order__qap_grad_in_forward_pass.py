# source: https://github.com/qAp/python_examples (notebook "Autograd example: grad in forward pass", its cells in order; notebook display -> print)
import torch
from torch.autograd import grad

x = torch.tensor(3., requires_grad=True)
m = x**2
y = m + x
p = 4*y

p.backward(retain_graph=True)

print(x.grad)

dydx = grad(outputs=y, inputs=x, create_graph=True)[0]

print(dydx)

dmdx = grad(outputs=m, inputs=x, create_graph=True)[0]

print(dmdx)

z = dydx**2 + dmdx**2

print(z)

z.backward()

print(x.grad)
