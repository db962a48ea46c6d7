# the deprecated Module.register_backward_hook (real snippet: pytorch issue 61446): the hook sees the grad_fn's input gradients (Linear: bias, input, weight.t()), its result replaces them, PyTorch's FutureWarning when the forward has several nodes, handle.remove(), and the error when full hooks are mixed in
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def hook(m, gi, go):
    print([None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])
h = lin.register_backward_hook(hook)
x = torch.randn(4, 3, requires_grad=True)
lin(x).sum().backward()
print(lin.weight.grad)
seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
def double(m, gi, go):
    return tuple(None if g is None else 2 * g for g in gi)
seq.register_backward_hook(double)
y = seq(x)
y.sum().backward()
print(x.grad)
h.remove()
lin(x).sum().backward()
try:
    lin.register_full_backward_hook(hook)
except RuntimeError as e:
    print(e)
