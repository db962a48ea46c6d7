# backward() on a non-scalar needs gradient=v, and computes the vector-Jacobian product v^T J.
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2                     # J = diag(2x)
v = torch.tensor([1.0, 0.1, 0.01])
y.backward(gradient=v)
print(x.grad)                  # v * 2x = [2.0, 0.4, 0.06]
