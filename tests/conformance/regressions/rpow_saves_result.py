# a number ** tensor (PowBackward2) saves its result: an in-place change of it fails the backward (generator finding)
x3 = torch.ones(3, dtype=torch.float64, requires_grad=True)
t7 = 2.0 ** x3
g, = torch.autograd.grad(t7.sum(), x3, create_graph=True)
print(g, g.grad_fn)
g.sum().backward(retain_graph=True)
print(x3.grad)
t7 *= -2.0
(t7 * t7).sum().backward()
