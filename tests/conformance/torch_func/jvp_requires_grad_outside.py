# jvp of a primal that requires grad outside: the output is an alias (AliasBackward0), the tangent differentiable
from torch.func import jvp
x = torch.tensor([0.5, 1.0], requires_grad=True)
o, t = jvp(torch.sin, (x,), (torch.ones(2),))
print(o.grad_fn.name(), t.grad_fn.name())
t.sum().backward()
print(x.grad)
