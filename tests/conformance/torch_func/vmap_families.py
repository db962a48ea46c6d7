# vmap over the elementwise, reduction and matmul families, in_dims/out_dims, None, nested vmap
from torch.func import vmap
x = torch.arange(6.).reshape(2, 3)
print(vmap(torch.sum)(x), vmap(torch.dot)(x, x), vmap(lambda a: a.exp().mean())(x))
print(vmap(lambda a: a * 2, in_dims=1)(x))
print(vmap(lambda a: a.sin(), out_dims=1)(x))
print(vmap(lambda a, b: a + b, in_dims=(0, None))(x, torch.ones(3)))
print(vmap(torch.mv, in_dims=(None, 0))(torch.ones(2, 3), x))
print(vmap(torch.matmul)(torch.ones(2, 2, 3), x.reshape(2, 3, 1)))
print(vmap(vmap(torch.sum))(torch.ones(2, 3, 4)), vmap(lambda a: a.sum(0))(torch.ones(2, 3, 4)).shape)
print(torch.vmap(lambda a: a.max())(x))
