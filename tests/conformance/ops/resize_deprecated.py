# the deprecated out-of-place Tensor.resize / resize_as: a warning per call line, ResizeBackward, a view of a contiguous input, the element-count error
x = torch.arange(6.).requires_grad_()
y = x.resize(2, 3)
print(y.grad_fn.name(), y._base is x, y.is_leaf)
t = torch.ones(3, 2).t().requires_grad_()
u = t.resize(6)
print(u._base is None, u.grad_fn.name())
w = (x * 2).resize_as(torch.zeros(3, 2))
print(w.shape, w.grad_fn.name())
with torch.no_grad():
    r = x.resize(3, 2)
    print(r.requires_grad, r.grad_fn)
(y * torch.arange(6.).view(2, 3)).sum().backward()
(u * torch.arange(6.)).sum().backward()
print(x.grad, t.grad)
try:
    x.resize((2, 3))
except RuntimeError as e:
    print(e)
try:
    w.mul_(2)
except RuntimeError as e:
    print(e)
z = x.resize(4)
