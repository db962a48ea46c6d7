# grad of an input that requires grad outside: the result is differentiable there (MulBackward0)
from torch.func import grad
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
g = grad(lambda x: torch.sin(x).sum())(x)
print(g.requires_grad, g.grad_fn.name(), g.is_leaf)
g.sum().backward()
print(x.grad)
