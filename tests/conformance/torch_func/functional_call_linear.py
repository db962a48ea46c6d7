# functional_call with a dict of tensors in place of nn.Linear's parameters; the module keeps its own
from torch.func import functional_call, grad
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
params = {k: torch.ones_like(v) for k, v in model.named_parameters()}
x = torch.tensor([[1.0, 2.0, 3.0]])
print(functional_call(model, params, (x,)))
print(functional_call(model, params, x).grad_fn)
print(model.weight.sum().item() != 6.0, model(x).shape)
g = grad(lambda p, x: functional_call(model, p, (x,)).sum())(params, x)
print(g['weight'], g['bias'])
