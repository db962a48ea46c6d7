# x ** e for e in 0.5, -0.5, 2, 3, -1, -2 is sqrt, rsqrt, products or reciprocals in PyTorch, not pow(): last bits, -0.0 and -inf differ
inf = float("inf")
x = torch.tensor([-0.0, 0.0, -inf, inf, -4.0, 4.0, 1.7, 0.3, -2.9], requires_grad=True)
for e in [0.5, -0.5, 2, 3, -1, -2, 2.0, 3.0, -1.0, 1.5, 4]:
    print(e, (x ** e).tolist(), x.pow(e).tolist())
    g, = torch.autograd.grad((x ** e).sum(), [x])
    print(g.tolist())
y = torch.tensor([1, 4, 9])
print((y ** 0.5).tolist(), (y ** -1).tolist() if False else 0, (y.double() ** 3).tolist())
z = torch.tensor([1.1, 2.3, -0.7], dtype=torch.float64)
print((z ** 3).tolist(), (z ** -0.5).tolist(), (z ** -2).tolist())
