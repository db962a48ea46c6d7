# grad over a dict, a list and nested tuples of tensors, and argnums=-1: gradients in the same structure
from torch.func import grad
x = torch.tensor([0.5, 1.0])
print(grad(lambda d: (d['a'] * d['b']).sum())({'a': x, 'b': x * 2}))
print(grad(lambda p: (p[0] * p[1][0]).sum())([x, (x * 3,)]))
print(grad(lambda x, y: (x * y).sum(), argnums=-1)(x, x + 1))
print(grad(lambda x: torch.tensor(2.0))(x))
print(grad(lambda x, k: (x * k).sum())(x, 3.0))
