# an uncaught functorch error fails at the line of the call
from torch.func import grad
x = torch.ones(3)
g = grad(lambda x: x * 2)(x)
print(g)
