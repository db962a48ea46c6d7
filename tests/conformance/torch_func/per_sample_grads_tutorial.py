# the per-sample-gradients tutorial's pattern (https://pytorch.org/tutorials/intermediate/per_sample_grads.html), a small model
from torch.func import functional_call, vmap, grad
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
data = torch.randn(5, 3)
targets = torch.randint(2, (5,))
def loss_fn(predictions, targets):
    return F.cross_entropy(predictions, targets)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for name, g in ft_per_sample_grads.items():
    print(name, g.shape, g.requires_grad)
w = ft_per_sample_grads['2.weight']
b = ft_per_sample_grads['0.bias']
