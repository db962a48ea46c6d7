# x[key] = v skips trivial slices (start 0, stop >= size, step 1) as PyTorch's indexing does: the write is then
# on x itself (FillBackward3 for a 0-d value, CopyBackwards for a same-shape one, else viewed/expanded);
# a bare x[:] read is still a SliceBackward0 view, x[:, :] an alias (generator finding)
a = torch.rand(3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
t = a * 1
t[:5] = 2.0
u = b * 1
u[:, :2] = torch.tensor(2.0, requires_grad=True)
v = b * 1
v[-2:] = torch.rand(1, 3, requires_grad=True)
w = b * 1
w[...] = torch.rand(2, 3, requires_grad=True)
s = b * 1
s[True] = 1.0
s[False] = 3.0
r = b * 1
r[0:2, 0] = torch.tensor([4.0])
print(t.grad_fn, u.grad_fn, v.grad_fn.next_functions[1][0].next_functions, w.grad_fn, s.grad_fn, r.grad_fn)
print(r[:].grad_fn, r[:, :].grad_fn, r[:, 0].grad_fn.next_functions, r[...].grad_fn)
(t.sum() + u.sum() + v.sum() + w.sum() + s.sum() + r.sum()).backward()
