# torch.func.grad's docs example (https://pytorch.org/docs/stable/generated/torch.func.grad.html), seeded
from torch.func import grad
torch.manual_seed(0)
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())

# Second-order gradients
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
assert torch.allclose(neg_sin_x, -x.sin())
print(cos_x, neg_sin_x)
