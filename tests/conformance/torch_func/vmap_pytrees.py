# vmap over a dict input, tuple outputs, out_dims with None for a non-tensor output, in_dims as a nested tuple
from torch.func import vmap
x = torch.arange(6.).reshape(2, 3)
print(vmap(lambda d: d['a'] * d['b'])({'a': x, 'b': x + 1}))
print(vmap(lambda a: (a, a.sum()))(x))
print(vmap(lambda a: (a, 1.0), out_dims=(0, None))(x))
print(vmap(lambda p, s: p[0] * s, in_dims=((0,), None))((x,), 2.0))
print(vmap(lambda a: torch.tensor(1.0))(x))
