# torch.func.linearize's docs example (https://pytorch.org/docs/stable/generated/torch.func.linearize.html), and its warning
import torch
from torch.func import linearize

def fn(x):
    return x.sin()

output, jvp_fn = linearize(fn, torch.zeros(3, 3))
print(jvp_fn(torch.ones(3, 3)))
print(output)
try:
    jvp_fn(torch.ones(2))
except RuntimeError as e:
    print(e)
