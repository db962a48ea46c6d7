# source: https://docs.pytorch.org/docs/stable/generated/torch.func.jacrev.html (docstring in pytorch/pytorch torch/_functorch/eager_transforms.py: its six examples in order; REPL -> script with the import the page assumes)
import torch

from torch.func import jacrev
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)

from torch.func import jacrev
x = torch.randn(5)

def f(x):
  return x.sin()

def g(x):
  result = f(x)
  return result, result

jacobian_f, f_x = jacrev(g, has_aux=True)(x)
assert torch.allclose(f_x, f(x))

from torch.func import jacrev, vmap
x = torch.randn(64, 5)
jacobian = vmap(jacrev(torch.sin))(x)
assert jacobian.shape == (64, 5, 5)

from torch.func import jacrev
def f(x):
  return x.sin().sum()

x = torch.randn(5)
hessian = jacrev(jacrev(f))(x)
assert torch.allclose(hessian, torch.diag(-x.sin()))

from torch.func import jacrev
def f(x, y):
  return x + y ** 2

x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=1)(x, y)
expected = torch.diag(2 * y)
assert torch.allclose(jacobian, expected)

from torch.func import jacrev
def f(x, y):
  return x + y ** 2

x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=(0, 1))(x, y)
expectedX = torch.diag(torch.ones_like(x))
expectedY = torch.diag(2 * y)
assert torch.allclose(jacobian[0], expectedX)
assert torch.allclose(jacobian[1], expectedY)
