# hardsigmoid's gradient is grad * (1.0f / 6.0f), a float constant even for float64 (generator finding)
x = torch.tensor([-4.0, -1.0, 0.5, 2.9, 3.0], dtype=torch.float64, requires_grad=True)
y = F.hardsigmoid(x)
y.sum().backward()
