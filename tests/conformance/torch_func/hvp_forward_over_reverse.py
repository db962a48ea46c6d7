# the Jacobians/Hessians tutorial's hvp = jvp(grad(f)) (forward over reverse), and hessian's signs of zeros
from torch.func import jvp, grad, hessian
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def f(x):
    return (x.sin() * x ** 2).sum()
x = torch.tensor([0.3, 0.6, 0.9])
print(hvp(f, (x,), (torch.tensor([1.0, 2.0, 3.0]),)))
a = torch.tensor([1.5, -2.0], dtype=torch.float64)
print(hessian(lambda a, b: (a * a * b).sum())(a, a + 1))
print(hessian(f)(x))
