# grad_fn._saved_* / _raw_saved_* as PyTorch shows them, Tensor._version / _base / _is_view(), Node.metadata, and the
# errors of a saved tensor read after backward freed it or after an in-place change
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
y = x * c
print(y.grad_fn._saved_other is c, y.grad_fn._saved_self, y.grad_fn._raw_saved_self)
e = x.exp()
r = e.grad_fn._saved_result
print(r, r is e, r.grad_fn is e.grad_fn, r.requires_grad)
print(x._version, e._version, x._base, x._is_view())
v = e[1:]
print(v._base is e, v._is_view(), v._version)
w = e.sigmoid()
e.mul_(2)
print(e._version, v._version, e.grad_fn)
try:
    w.grad_fn._saved_result
    e2 = x.exp()
    e2.grad_fn._saved_result
    z = x.cos()
    x.data.add_(0)
    s = e.sin()
    e.add_(1)
    s.grad_fn._saved_self
except RuntimeError as err:
    print("RuntimeError:", err)
s = (x.sin() * 2).sum()
print(s.grad_fn._saved_self_sym_sizes, x.sum(0).grad_fn._saved_keepdim, (x ** 3).grad_fn._saved_exponent)
s.backward()
fn = s.grad_fn.next_functions[0][0].next_functions[0][0]
print(fn.name(), fn._raw_saved_self)
try:
    print(fn._saved_self)
except RuntimeError as err:
    print("RuntimeError:", err)
print(s.grad_fn._saved_self_sym_sizes)
m = y.grad_fn.metadata
m["note"] = "mine"
print(y.grad_fn.metadata, y.grad_fn.name())
try:
    y.grad_fn._saved_nothing
except AttributeError as err:
    print("AttributeError:", err)
with torch.inference_mode():
    i = torch.ones(2)
try:
    print(i._version)
except RuntimeError as err:
    print("RuntimeError:", err)
