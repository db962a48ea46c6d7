# the Jacobians tutorial's batch of Jacobians: vmap(jacrev(f)) and jacrev of a batched function with sum
from torch.func import vmap, jacrev
torch.manual_seed(0)
weight = torch.randn(3, 4)
bias = torch.randn(3)
x = torch.randn(2, 4)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
jac = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, x)
print(jac.shape)
print(jac[1])
