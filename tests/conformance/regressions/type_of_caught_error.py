import torch
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(type(e))
    print(type(e) is RuntimeError, isinstance(e, RuntimeError))
try:
    torch.ones(2) + torch.ones(3)
except Exception as e:
    print(type(e), type(e) == RuntimeError)
try:
    int("a")
except ValueError as e:
    print(type(e))
print(x.grad)
