# functorch's errors, caught: non-scalar output, a non-tensor input, argnums, has_aux, an int dtype
from torch.func import grad
x = torch.ones(2)
tries = [lambda: grad(lambda x: x)(x), lambda: grad(lambda x: x.sum())(3.0),
         lambda: grad(lambda x, y: (x * y).sum(), argnums=(0, 0))(x, x),
         lambda: grad(lambda x: x.sum(), argnums=2)(x), lambda: grad(lambda x: x.sum(), argnums=1.5)(x),
         lambda: grad(lambda x: x.sum(), has_aux=True)(x), lambda: grad(lambda x: x.sum())(),
         lambda: grad(lambda x: 3.0)(x), lambda: grad(lambda x: (x.sum(), 1), has_aux=True)(x),
         lambda: grad(lambda x: x.sum())(torch.ones(2, dtype=torch.long)),
         lambda: grad(lambda x: x.sum(), argnums=())(x)]
for t in tries:
    try:
        t()
    except RuntimeError as e:
        print('RuntimeError', e)
    except ValueError as e:
        print('ValueError', e)
