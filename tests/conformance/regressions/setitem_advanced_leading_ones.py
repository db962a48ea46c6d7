# Fuzz find (#20): x[mask] = v with a 2-d v was an internal error (numpy's boolean assignment takes 0-d/1-d
# values only). PyTorch views v without its leading 1-dims (ViewBackward0) and index_put_ broadcasts it.
x = torch.zeros(3, 3)
m = torch.ones(3, 3, dtype=torch.bool)
v = torch.ones(1, 9, requires_grad=True)
x[m] = v * 2
print(x)
print(x.grad_fn.next_functions[1][0].next_functions)
x.sum().backward()
print(v.grad)
y = torch.zeros(4, 3)
w = torch.ones(1, 1, requires_grad=True)
y[[0, 2]] = w
print(y.grad_fn.next_functions)
y.sum().backward()
print(w.grad)
z = torch.zeros(2, 3)
u = torch.arange(3.0).reshape(1, 3).requires_grad_()
z[z == 0] = u.repeat(2, 1).reshape(1, 6)
print(z)
