# nn.LayerNorm: ones/zeros init, print, NativeLayerNormBackward0, gradients of input, weight and bias
import torch.nn as nn
torch.manual_seed(0)
ln = nn.LayerNorm(5)
print(ln, nn.LayerNorm([2, 3], eps=1e-3, elementwise_affine=False), nn.LayerNorm(4, bias=False))
x = torch.randn(3, 5, requires_grad=True)
y = ln(x)
print(y)
print(y.grad_fn, y.grad_fn.next_functions)
loss = (y * torch.randn(3, 5)).sum()
loss.backward()
print(x.grad)
print(ln.weight.grad, ln.bias.grad)
