# hessian and jacrev(jacrev(f)); jacfwd of a function of two inputs
from torch.func import hessian, jacrev, jacfwd
x = torch.tensor([0.5, 1.0])
f = lambda x: (x.sin() * x ** 2).sum()
print(hessian(f)(x))
print(jacrev(jacrev(f))(x))
print(jacfwd(lambda a, b: a * b.exp(), argnums=(0, 1))(x, x + 1))
print(hessian(lambda a, b: (a * b).sum(), argnums=1)(x, x))
