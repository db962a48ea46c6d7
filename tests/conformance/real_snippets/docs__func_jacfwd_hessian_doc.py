# source: https://docs.pytorch.org/docs/stable/generated/torch.func.jacfwd.html and https://docs.pytorch.org/docs/stable/generated/torch.func.hessian.html (docstrings in pytorch/pytorch torch/_functorch/eager_transforms.py: jacfwd's first four examples, then hessian's example; REPL -> script with the import the pages assume)
import torch

from torch.func import jacfwd
x = torch.randn(5)
jacobian = jacfwd(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)

from torch.func import jacfwd, vmap
x = torch.randn(64, 5)
jacobian = vmap(jacfwd(torch.sin))(x)
assert jacobian.shape == (64, 5, 5)

from torch.func import jacfwd
x = torch.randn(5)

def f(x):
  return x.sin()

def g(x):
  result = f(x)
  return result, result

jacobian_f, f_x = jacfwd(g, has_aux=True)(x)
assert torch.allclose(f_x, f(x))

from torch.func import jacfwd, jacrev
def f(x):
  return x.sin().sum()

x = torch.randn(5)
hessian = jacfwd(jacrev(f))(x)
assert torch.allclose(hessian, torch.diag(-x.sin()))

from torch.func import hessian
def f(x):
  return x.sin().sum()

x = torch.randn(5)
hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
assert torch.allclose(hess, torch.diag(-x.sin()))
