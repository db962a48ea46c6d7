# a bare raise in a handler re-raises the error as it was: kind second_backward at the line of the backward
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
y.backward()
try:
    y.backward()
except RuntimeError:
    print("cleaning up")
    raise
