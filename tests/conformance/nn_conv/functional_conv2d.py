# F.conv2d / torch.conv2d with explicit weights: integer-valued data gives exact values; grads of input, weight and bias
import torch.nn.functional as F
x = torch.arange(32.0).reshape(1, 2, 4, 4).requires_grad_()
w = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]], [[0.5, 0.5], [0.5, 0.5]]]], requires_grad=True)
b = torch.tensor([1.0], requires_grad=True)
y = F.conv2d(x, w, b, stride=1, padding=1)
print(y)
z = torch.conv2d(x, w, None, 2)
print(z, z.grad_fn)
(y * y).sum().backward()
print(x.grad, w.grad, b.grad)
l = F.conv2d(torch.ones(1, 1, 3, 3, dtype=torch.long), torch.ones(1, 1, 2, 2, dtype=torch.long))
print(l)
