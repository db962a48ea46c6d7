# remainder by a tensor records RemainderBackward1 (by a number RemainderBackward0); a zero result keeps
# fmod's sign (remainder(0., -1.) is 0.); self is saved only when the divisor requires grad (generator finding)
x1 = torch.tensor([[0.5], [1.0]], requires_grad=True)
t5 = 0.25 // x1
x2 = torch.tensor([-1.0, -0.5])
t6 = t5.remainder(x2)
print(t6)
y = torch.tensor([1.0, 2.0], requires_grad=True)
a = y * 1
r = a.remainder(torch.tensor([0.5, 0.75]))
s = a % 2.0
a.mul_(2)
(r + s).sum().backward()
print(y.grad, r.grad_fn, s.grad_fn)
