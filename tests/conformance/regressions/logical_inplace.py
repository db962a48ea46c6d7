# logical_and_/or_/xor_/not_ write the logical result, cast, into the tensor: not recorded (no leaf_inplace, grad_fn kept), version bumped; a result that does not fit is a shape error (generator finding)
x = torch.ones(2, requires_grad=True)
a = torch.tensor([True, False])
x.logical_and_(a)
y = x * 2
z = y.exp()
y.logical_or_(a)
z.sum().backward()
print(x, x.grad, y)
i = torch.tensor([3, 0])
i.logical_xor_(torch.tensor([1, 1]))
print(i)
i.logical_not_()
print(i)
q = torch.ones(3, requires_grad=True) * 1
vv = q[0:2]
vv.logical_and_(a)
print(q, vv.grad_fn)
w = y * y
y.logical_and_(a)
w.sum().backward()
b = torch.ones(2, 1)
b.logical_and_(torch.ones(2, 2))
