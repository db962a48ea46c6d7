# torch.nn.utils.clip_grad: the module the clipping functions live in, read as an attribute (nn.utils.clip_grad.clip_grad_norm_)
import torch
from torch import nn
w = torch.tensor([3.0, 4.0], requires_grad=True)
(w * w).sum().backward()
print(nn.utils.clip_grad.clip_grad_norm_(parameters=[w], max_norm=1.0, norm_type=2))
nn.utils.clip_grad.clip_grad_value_(parameters=[w], clip_value=0.01)
print(w.grad)
