# reading grad_fn refreshes a stale view: the in-place op is then recorded (CopySlices on the base)
b = torch.zeros(4)
v = b[1:3]
b.copy_(torch.ones(4, requires_grad=True))
v.grad_fn
v.mul_(2)
