# a gradient through a view's AsStridedBackward0 under create_graph is itself an as_strided view (AsStridedBackward0)
leaf = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([0.5, -2.0, 3.0], requires_grad=True)
b = leaf * 1
v = b[1]
v.mul_(w)
u = v * 3
g1, g2 = torch.autograd.grad((u * u).sum(), [b, w], create_graph=True)
h = torch.autograd.grad((g1.sum() + g2.sum()), [leaf, w])
print(h)
