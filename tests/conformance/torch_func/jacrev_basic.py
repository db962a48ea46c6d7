# jacrev: one Jacobian, argnums as a tuple, has_aux, two outputs
from torch.func import jacrev
x = torch.tensor([0.5, 1.0, 2.0])
print(jacrev(torch.sin)(x))
print(jacrev(lambda x, y: x * y.sum(), argnums=(0, 1))(x, x[:2]))
print(jacrev(lambda x: (x.exp(), x.cos()), has_aux=True)(x))
print(jacrev(lambda x: (x.sum(), x ** 2))(x))
print(jacrev(lambda x: x @ torch.ones(3, 2))(x))
