# grad of an input that does not require grad: a plain tensor, no grad_fn (functorch unwraps its level)
from torch.func import grad
x = torch.tensor([0.5, 1.0])
g = grad(lambda x: (x ** 3).sum())(x)
print(g, g.requires_grad, g.grad_fn, g.is_leaf, x.requires_grad)
