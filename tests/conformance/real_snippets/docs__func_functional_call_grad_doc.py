# source: https://docs.pytorch.org/docs/stable/generated/torch.func.functional_call.html (docstring in pytorch/pytorch torch/_functorch/functional_call.py: the grad-over-parameters code block, then the detached-parameters note; its displayed grad_weights.grad_fn -> print)
import torch
import torch.nn as nn
from torch.func import functional_call, grad

x = torch.randn(4, 3)
t = torch.randn(4, 3)
model = nn.Linear(3, 3)


def compute_loss(params, x, t):
    y = functional_call(model, params, x)
    return nn.functional.mse_loss(y, t)


grad_weights = grad(compute_loss)(dict(model.named_parameters()), x, t)

detached_params = {k: v.detach() for k, v in model.named_parameters()}
grad_weights = grad(compute_loss)(detached_params, x, t)
print(grad_weights.grad_fn)  # None--it's not tracking gradients outside of grad
