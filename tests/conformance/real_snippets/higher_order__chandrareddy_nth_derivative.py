# source: https://github.com/chandrareddytiyyagura/pytorch-basics (notebook: "Partial derivative" and "Successive Differentiation" cells; unused "import numpy as np" removed, notebook display -> print)
import torch

x = torch.tensor(5.0, requires_grad=True)
y = torch.tensor(5.0, requires_grad=True)

f = x **2 + y**2

f.backward()

print(f.grad_fn)

print(x.grad) # Partial derivative wrt x

print(y.grad) # partial derirvative wrt y

x = torch.tensor(5.0, requires_grad=True)
y = torch.tensor(5.0, requires_grad=True)

f2 = x**2 * y**2

f2.backward()

print(f2.grad_fn)

print(x.grad)

print(y.grad)

from torch.autograd import grad

def nth_derivative(f, wrt, n=2):
    for i in range(n):
        grads = grad(f, wrt, create_graph=True)[0]
        f = grads.sum()

    return grads

x= torch.tensor(5.0, requires_grad=True)

f = x**2 + x**3

# calculating double derivative
print(nth_derivative(f, x))
