# Why is y.grad None? Only leaves get .grad; retain_grad() keeps an intermediate's gradient.
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 2          # a non-leaf: it has a grad_fn (MulBackward0)
y.retain_grad()    # ask autograd to keep dz/dy
z = (y * 3).sum()
z.backward()
print(x.grad)      # dz/dx = 3 * 2 = 6 everywhere
print(y.grad)      # dz/dy = 3 everywhere, kept thanks to retain_grad()
print(x.is_leaf, y.is_leaf, y.retains_grad)
