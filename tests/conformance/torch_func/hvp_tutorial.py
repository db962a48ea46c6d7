# the Jacobians/Hessians tutorial's hvp by reverse-over-reverse (vjp of grad) and hessian (https://pytorch.org/tutorials/intermediate/jacobians_hessians.html)
from torch.func import vjp, grad, hessian
def f(x):
    return x.sin().sum()
def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)
x = torch.tensor([0.3, 0.6, 0.9])
tangent = torch.tensor([1.0, 2.0, 3.0])
result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
print(result_hvp_revrev)
print(hessian(f)(x) @ tangent)
