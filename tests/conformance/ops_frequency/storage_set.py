# untyped_storage / data_ptr / storage_offset / set_ (tensor, empty, storage window; leaf and dtype errors; NotImplemented node)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.detach()
y[0] = 2.0
print(x.untyped_storage().tolist() == y.untyped_storage().tolist(), x.untyped_storage().tolist())
print(x.data_ptr() == y.data_ptr(), x.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
v = torch.arange(6.).view(2, 3)[1]
print(v.untyped_storage().nbytes(), v.data_ptr() - v.untyped_storage().data_ptr(), v.storage_offset())
print(torch.zeros(2).untyped_storage().tolist(), torch.tensor([1, 2], dtype=torch.int32).untyped_storage().tolist())
s = torch.arange(4.).untyped_storage()
print(s.nbytes(), s.size(), len(s), s.element_size(), s.device, s[4])
print(torch.tensor([1., 2.]).untyped_storage())
a = torch.zeros(3)
b = torch.tensor([5., 6.])
r = a.set_(b)
print(r is a, a, a.data_ptr() == b.data_ptr(), a.is_set_to(b))
b[0] = 9
print(a)
h = x * 1
h.set_(b)
print(h, h.grad_fn.next_functions[1])
c = torch.zeros(2)
c.set_()
print(c, c.shape)
d = torch.zeros(4)
d.set_(torch.arange(6.).untyped_storage(), 1, (2, 2), (2, 1))
print(d)
try:
    torch.zeros(2, dtype=torch.long).set_(b)
except RuntimeError as e:
    print(e)
try:
    x.set_(b)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    x.set_(torch.tensor([7., 8.]))
print(x, x.is_leaf)
try:
    h.sum().backward()
except RuntimeError as e:
    print(e)
