# the gradient of a masked assignment is +0.0 where values were written (index_put of zeros), not -0.0 from a
# product by a mask; IndexPutBackward0 under create_graph (generator finding, seed 2026121032 on 7a0d5f7)
x2 = torch.ones(3, 2, dtype=torch.float32, requires_grad=True)
a = x2.tanh()
a.register_hook(lambda g: print('a', g))
b = a * 0.5
b.register_hook(lambda g: print('b', g))
t3 = b.arcsin()
t3.register_hook(lambda g: print('t3 before', g))
t3 *= 1.5
t3.register_hook(lambda g: print('t3 mid', g))
t3[t3 > 0] = -0.5
t3.register_hook(lambda g: print('t3 after', g))
(t3 * t3).sum().backward()
print(x2.grad)
x = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
y = x * 1
y[torch.tensor([0, 3])] = torch.tensor([5.0, 6.0])
g, = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
print(g, g.grad_fn.next_functions)
g.sum().backward()
print(x.grad)
z = x * 2
z[1:3] = 0.0
z.sum().backward()
print(x.grad)
w = x * -1
w[w < 0] = 1.0
w.sum().backward()
print(x.grad)
