# vjp: the output, and a vjp_fn that can be called again; has_aux; a wrong cotangent shape
from torch.func import vjp
x = torch.tensor([0.5, 1.0])
out, vjp_fn = vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(2)), vjp_fn(torch.tensor([2.0, 3.0])))
out, fn, aux = vjp(lambda x: (x.sin(), x.cos()), x, has_aux=True)
print(out, aux, fn(torch.ones(2)))
try:
    vjp_fn(torch.ones(3))
except RuntimeError as e:
    print(e)
