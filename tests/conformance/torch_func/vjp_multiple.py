# vjp of a function of two inputs with two outputs: one product per primal; a cotangent of the wrong structure
from torch.func import vjp
x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, 4.0])
(a, b), fn = vjp(lambda x, y: (x * y, x + y), x, y)
print(a, b)
print(fn((torch.ones(2), torch.tensor([1.0, -1.0]))))
try:
    fn(torch.ones(2))
except RuntimeError as e:
    print(e)
