# source: https://docs.pytorch.org/docs/stable/generated/torch.vmap.html (docstring in pytorch/pytorch torch/_functorch/apis.py: the batched dot, the hidden-batch model and the Jacobian-by-vmap examples; REPL -> script, displayed values -> print, the bare "torch.dot" display lines left out)
import torch

batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))

batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)

def model(feature_vec):
# Very simple linear model with activation
    return feature_vec.dot(weights).relu()

examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)

# Setup
N = 5
f = lambda x: x**2
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)

# Sequential approach
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0]
                 for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)

# vectorized gradient computation
def get_vjp(v):
    return torch.autograd.grad(y, x, v)
jacobian = torch.vmap(get_vjp)(I_N)
