# a hook is a lambda closing over a variable of the enclosing def
def attach(t, scale):
    t.register_hook(lambda g: g * scale)
    return t
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = attach(x * 1, 10)
y.sum().backward()
print(x.grad)
