# jacrev of an input that requires grad outside: the Jacobian has ViewBackward0 and backward reaches x
from torch.func import jacrev
x = torch.tensor([0.5, 1.0], requires_grad=True)
j = jacrev(torch.sin)(x)
print(j.grad_fn.name(), j.requires_grad)
j.sum().backward()
print(x.grad)
j2 = jacrev(torch.sin)(x.detach())
print(j2.requires_grad, j2.grad_fn)
