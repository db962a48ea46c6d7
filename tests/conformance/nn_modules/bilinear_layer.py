# nn.Bilinear: init, print, TrilinearBackward0 under ViewBackward0 / AddBackward0, gradients; F.bilinear
# on 3-d inputs without bias; mismatched sizes
import torch.nn as nn
torch.manual_seed(0)
bl = nn.Bilinear(2, 3, 4)
print(bl, nn.Bilinear(1, 1, 1, bias=False))
x1 = torch.randn(5, 2, requires_grad=True)
x2 = torch.randn(5, 3, requires_grad=True)
y = bl(x1, x2)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].next_functions)
z = F.bilinear(torch.randn(2, 2, 2), torch.randn(2, 2, 3), bl.weight)
print(z.shape, z.grad_fn)
loss = y.pow(2).sum() + z.sum()
loss.backward()
print(x1.grad, bl.weight.grad[0])
try:
    F.bilinear(x1, x1, bl.weight)
except RuntimeError as e:
    print("RuntimeError:", e)
