# grad nested three deep: the third derivative of sin, and of x**4 w.r.t. a tensor that requires grad
from torch.func import grad
x = torch.tensor(0.7)
print(grad(grad(grad(torch.sin)))(x))
w = torch.tensor(1.5, requires_grad=True)
d3 = grad(grad(grad(lambda t: t ** 4)))(w)
print(d3, d3.requires_grad)
