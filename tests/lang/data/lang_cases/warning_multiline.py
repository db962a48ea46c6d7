# a warning inside a multi-line statement is reported at the line of the attribute read
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
g = [
    1,
    y.grad,
]
h = y.grad
h2 = y.grad
s = y.sum()
