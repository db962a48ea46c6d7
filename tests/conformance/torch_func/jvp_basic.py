# jvp: primal output and tangent, has_aux, errors (primals not a tuple, tangent size, structure)
from torch.func import jvp
x = torch.tensor([0.5, 1.0])
print(jvp(torch.sin, (x,), (torch.ones(2),)))
print(jvp(lambda a, b: a * b, (x, x + 1), (torch.ones(2), torch.zeros(2))))
print(jvp(lambda a: (a.exp(), a.cos()), (x,), (torch.ones(2),), has_aux=True))
print(jvp(lambda a: torch.ones(2), (x,), (torch.ones(2),)))
for t in [lambda: jvp(torch.sin, x, torch.ones(2)), lambda: jvp(torch.sin, (x,), (torch.ones(3),)),
          lambda: jvp(torch.sin, (x,), [torch.ones(2)]), lambda: jvp(torch.sin, (x, x), (torch.ones(2),))]:
    try:
        t()
    except RuntimeError as e:
        print(e)
