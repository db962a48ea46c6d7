# F.layer_norm over the last two dims with weight and bias, float64, no affine; a transformer-like block
import torch.nn as nn
torch.manual_seed(1)
x = torch.randn(2, 3, 4, requires_grad=True)
w = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4, requires_grad=True)
y = F.layer_norm(x, (3, 4), w, b, eps=1e-6)
z = F.layer_norm(x.double(), [4])
print(z.dtype, z.grad_fn)
block = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 4))
h = block(x)
print(block)
loss = y.pow(2).sum() + h.sum() + z.sum().float()
