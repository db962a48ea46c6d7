# grad_and_value: (gradient, value), and (gradient, (value, aux)) with has_aux
from torch.func import grad_and_value
x = torch.tensor([0.5, 1.0, 1.5])
g, v = grad_and_value(lambda x: (x.exp() * x).sum())(x)
print(g, v, v.requires_grad)
g, (v, aux) = grad_and_value(lambda x: (x.sin().sum(), x.cos()), has_aux=True)(x)
print(g, v, aux)
w = torch.tensor([2.0], requires_grad=True)
g, v = grad_and_value(lambda x: (x * x).sum())(w)
print(g.grad_fn.name(), v.grad_fn.name())
