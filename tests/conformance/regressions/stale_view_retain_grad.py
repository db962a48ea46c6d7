# retain_grad on a stale view is a no-op (C++ is_leaf: no grad_fn field yet); its .grad stays None with the non-leaf warning
b = torch.zeros(4)
v = b[1:3]
b.copy_(torch.ones(4, requires_grad=True))
v.retain_grad()
(v*2).sum().backward()
print(v.grad)
