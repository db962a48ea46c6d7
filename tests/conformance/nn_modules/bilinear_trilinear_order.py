# nn.Bilinear in float32 at the sizes of the docs example (20 x 30 -> 40): ATen's _trilinear order (sumproduct_pair -> bmm per output feature) for the output and the input/weight gradients
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Bilinear(20, 30, 40)
x1 = torch.randn(16, 20, requires_grad=True)
x2 = torch.randn(16, 30, requires_grad=True)
y = m(x1, x2)
print(y[:2, :6])
loss = (y * y).sum()
loss.backward()
print(m.weight.grad[0, :2, :5], x2.grad[:2, :6])
w = m.weight.grad
