# binary_cross_entropy's CPU kernel clamps (1 - x) x at EPSILON, a C++ float: 1e-12 rounded to float32, even for
# double inputs, so x = 1, t = 0 gives 1 / 9.99999996e-13 = 1000000003995.8029 (generator finding, seed
# 2026121432). The double-backward formulas use the double 1e-12.
x1 = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
t6 = F.binary_cross_entropy(x1, torch.full([2, 2], 0.0, dtype=torch.float64))
t6.backward()
x2 = torch.zeros(3, requires_grad=True)
F.binary_cross_entropy(x2, torch.ones(3), reduction='sum').backward()
x3 = torch.ones(1, dtype=torch.float64, requires_grad=True)
y3 = torch.zeros(1, dtype=torch.float64, requires_grad=True)
g3, = torch.autograd.grad(F.binary_cross_entropy(x3, y3, reduction='sum'), x3, create_graph=True)
gx3, gy3 = torch.autograd.grad(g3.sum(), [x3, y3])
