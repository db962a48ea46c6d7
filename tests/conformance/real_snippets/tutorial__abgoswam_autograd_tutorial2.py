# source: https://github.com/abgoswam/CS224N-Natural-Language-Processing-with-Deep-Learning/blob/3d4978e1b4d729b5f5b09ef44a26e54adb4bcbc5/trials/pytorch_autograd_tutorial2.py (the whole script: the 60-minute blitz autograd walkthrough; randn without a seed, so PyTorch's default generator state)
import torch

x = torch.ones(2, 2, requires_grad=True)
print(x)

y = x + 2
print(y)

z = y * y * 3
out = z.mean()

print(z, out)

out.backward()

print(x.grad)

x = torch.randn(3, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)

v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)

print(x.grad)
