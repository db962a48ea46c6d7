# the error line is the innermost frame in the file (inside a nested def)
def outer(t):
    def inner(u):
        return u @ torch.ones(3)
    return inner(t)
x = torch.ones(2)
y = outer(x)
