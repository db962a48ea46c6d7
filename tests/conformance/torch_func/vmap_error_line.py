# .item() on a batched tensor fails at its line inside the function
from torch.func import vmap
def f(a):
    s = a.sum()
    return a * s.item()
y = vmap(f)(torch.ones(2, 3))
