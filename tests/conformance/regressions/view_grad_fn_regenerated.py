# a view's grad_fn is regenerated (AsStridedBackward0) after its base is modified in place (generator finding)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
a = x * 1
b = a[0]
c = a.unsqueeze(0)
a.mul_(3)
print(b.grad_fn, c.grad_fn, b.is_leaf)
(b * 2).sum().backward()
print(x.grad)
z = torch.ones(3)
vz = z[0:2]
z.add_(1)
z.requires_grad_()
print(vz.grad_fn, vz.requires_grad, vz.is_leaf)
