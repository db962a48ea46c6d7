# x += y calls the in-place operator: a tensor is mutated (same object), an int is rebound
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
z = y
y += 1
y *= 2
print(y is z, z, y.grad_fn)
n = 1
m = n
n += 1
print(n, m)
lst = [1]
alias = lst
lst += [2]
print(alias)
loss = (z * x).sum()
