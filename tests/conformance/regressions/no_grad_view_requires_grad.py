# views made with grad off of a tensor that requires grad: requires_grad, no grad_fn, no edge; hooks never fire (generator finding)
x = torch.tensor([[1., -2., 3.], [0.5, 0., -1.]], requires_grad=True)
with torch.no_grad():
    v = x.t()
    w = x[0]
    u = x.expand(2, 2, 3)
    m = x * 2
print(v.requires_grad, v.is_leaf, v.grad_fn, w.requires_grad, u.requires_grad, m.requires_grad)
print(w)
v.retain_grad()
w.register_hook(lambda g: print("never", g))
y = (v * 3).sum() + (w * 2).sum()
print(y.grad_fn.next_functions)
y.backward()
print(x.grad, v.grad, w.grad)
a = x * 1
