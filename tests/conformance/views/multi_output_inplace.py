# multi-output views (unbind/split/chunk) and views of them changed in place: PyTorch's error at the in-place line, its message; in no_grad an unbind output may change, then its grad_fn is Invalid
root = torch.arange(9.).reshape(3, 3).requires_grad_()
x = root.clone()
a, b, c = x.unbind()
v = a.view_as(a)
print(v.grad_fn)
try:
    v.mul_(2)
except RuntimeError as e:
    print(e)
w = b.view(3)
try:
    w.add_(1)
except RuntimeError as e:
    print(e)
s1, s2 = x.split(2)
try:
    s1.add_(1)
except RuntimeError as e:
    print(e)
k = s2[0]
try:
    k.add_(1)
except RuntimeError as e:
    print(e)
c1, c2 = x.chunk(2, dim=1)
try:
    c2.sin_()
except RuntimeError as e:
    print(e)
x.mul_(2)
try:
    print(a.grad_fn)
except RuntimeError as e:
    print(e)
print(x.grad_fn)
with torch.no_grad():
    q = x[0]
try:
    q.add_(1)
except RuntimeError as e:
    print(e)
y = torch.ones(2, 3, requires_grad=True).clone()
p, r = y.unbind(0)
with torch.no_grad():
    p.add_(1)
print(p, y)
z = y.unbind(1)[0]
y.add_(1)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
