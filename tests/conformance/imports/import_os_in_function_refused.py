# a refused import inside a function body is found before anything runs too
x = torch.ones(2)
def f():
    import os
    return os
print(x)
