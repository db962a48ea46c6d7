# source: https://docs.pytorch.org/docs/stable/generated/torch.func.linearize.html and https://docs.pytorch.org/docs/stable/generated/torch.func.jvp.html (docstrings in pytorch/pytorch torch/_functorch/eager_transforms.py: linearize's example, its displayed value -> print, then jvp's two examples)
import torch
from torch.func import linearize
def fn(x):
    return x.sin()

output, jvp_fn = linearize(fn, torch.zeros(3, 3))
print(jvp_fn(torch.ones(3, 3)))

from torch.func import jvp
x = torch.randn([])
f = lambda x: x * torch.tensor([1.0, 2.0, 3])
value, grad = jvp(f, (x,), (torch.tensor(1.0),))
assert torch.allclose(value, f(x))
assert torch.allclose(grad, torch.tensor([1.0, 2, 3]))

from torch.func import jvp
x = torch.randn(5)
y = torch.randn(5)
f = lambda x, y: (x * y)
_, output = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
assert torch.allclose(output, x + y)
