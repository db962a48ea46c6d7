# detach() shares storage: changing the detached tensor changes the original's values too (`gradcli check` reports a mismatch: x changes after it requires grad).
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = x.detach()
d[0] = 10.0
print(x)                  # the first value is now 10
print(d.requires_grad, x.requires_grad)
y = (x * x).sum()
y.backward()
print(x.grad)             # 2 * x with the new values
