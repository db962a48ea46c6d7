# a view made before its base is modified under no_grad gets AsStridedBackward0 (generator finding)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y[:2]
with torch.no_grad():
    y.mul_(2)
print(v.grad_fn)
(v * v).sum().backward()
print(x.grad)
