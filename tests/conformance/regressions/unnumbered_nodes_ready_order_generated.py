# AccumulateGrad and NotImplemented nodes share PyTorch's sequence number UINT64_MAX: among them the ready queue
# runs the one made ready first, so a leaf whose AccumulateGrad became ready after a NotImplemented node never
# sees its gradient (its hook does not run); leaves' hooks run in the order their gradients became ready
# (generator finding, seed 2026121632).
x1 = torch.arange(-1.0, 1.75, 0.5, dtype=torch.float64).reshape((3, 2)).requires_grad_()
x7 = torch.arange(0.5, 6.0, 1.0, dtype=torch.float64).reshape((2, 3)).requires_grad_()
x7.register_hook(lambda g: print('hook x7', g.shape))
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0], requires_grad=True)
a.register_hook(lambda g: print('hook a', g))
b.register_hook(lambda g: print('hook b', g))
c.register_hook(lambda g: print('hook c', g))
torch.stack([b, c, a]).sum().backward()
(a * b + c).sum().backward()
torch.cat([c, a, b]).pow(2).sum().backward()
t4 = 1 // x1
t8 = t4 @ x7
t8.backward(gradient=torch.ones_like(t8))
