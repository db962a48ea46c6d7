def f(t):
    return t * scale
x = torch.tensor(2.0, requires_grad=True)
y = f(x)
