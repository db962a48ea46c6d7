# vmap's errors, caught: .item(), control flow, random in 'error' mode, bad in_dims/out_dims, sizes, outputs
from torch.func import vmap
x = torch.arange(6.).reshape(2, 3)
w = torch.tensor(2.0)
tries = [lambda: vmap(lambda a: a.sum().item())(x), lambda: vmap(lambda a: a if a.sum() > 0 else -a)(x),
         lambda: vmap(lambda a: torch.rand(3))(x), lambda: vmap(lambda a: a, in_dims=2)(x),
         lambda: vmap(lambda a, b: a, in_dims=(0,))(x, x), lambda: vmap(lambda a: 3.0)(x),
         lambda: vmap(lambda a: a)(3.0), lambda: vmap(lambda a, b: a + b)(x, torch.ones(3, 3)),
         lambda: vmap(lambda a: a * w.item())(x), lambda: vmap(lambda a: a.sum(), in_dims=[0])(x),
         lambda: vmap(lambda a: (a, a), out_dims=(0,))(x), lambda: vmap(lambda a: a, chunk_size=0)(x),
         lambda: vmap(lambda a: float(a.sum()))(x), lambda: vmap(lambda a: a)(torch.tensor(3.0))]
for t in tries:
    try:
        print(t())
    except RuntimeError as e:
        print('RuntimeError', e)
    except ValueError as e:
        print('ValueError', e)
