# torch.no_grad inside f is respected; an enclosing torch.no_grad is not (grad's docs note, both cases)
from torch.func import grad
def f(x):
    with torch.no_grad():
        c = x ** 2
    return (x - c).sum()
x = torch.tensor([1.0, 3.0])
print(grad(f)(x))
with torch.no_grad():
    print(grad(f)(x))
    print(grad(lambda x: (x ** 2).sum())(x))
