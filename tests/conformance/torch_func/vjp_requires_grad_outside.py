# vjp of an input that requires grad outside: the output keeps SinBackward0, the products are differentiable
from torch.func import vjp
x = torch.tensor([0.5, 1.0], requires_grad=True)
out, fn = vjp(torch.sin, x)
(v,) = fn(torch.ones(2))
print(out.grad_fn.name(), v.grad_fn.name(), v)
v.sum().backward()
print(x.grad)
