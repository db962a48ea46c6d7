# a non-differentiable in-place op (logical_not_) on a stale view does not refresh its grad_fn, so the next in-place op still sees a leaf
b = torch.zeros(4)
v = b[1:3]
b.copy_(torch.ones(4, requires_grad=True))
v.logical_not_()
v.mul_(2)
