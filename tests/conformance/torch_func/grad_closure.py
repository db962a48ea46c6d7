# a closure over a tensor that requires grad outside: the gradient depends on it there
from torch.func import grad
y = torch.tensor([2.0, 3.0], requires_grad=True)
x = torch.tensor([1.0, 4.0])
g = grad(lambda x: (x * y).sum())(x)
print(g, g.requires_grad, g.grad_fn.name())
g.sum().backward()
print(y.grad)
