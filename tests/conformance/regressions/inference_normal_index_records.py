# a normal index, mask or condition tensor brings autograd in for an inference tensor that requires grad, outside inference_mode
with torch.inference_mode():
    X = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    Xi = torch.tensor([0, 1])
    M = torch.tensor([[True, False], [False, True]])
i = torch.tensor([0, 1])
m = torch.tensor([[True, False], [False, True]])
a = X.index_select(0, i)
b = X.index_select(0, Xi)
c = X[i]
d = X[Xi]
e = X[m]
f = X[M]
g = torch.where(m, X, X)
h = torch.where(M, X, X)
k = X.masked_fill(m, 1.0)
n = torch.where(m, X, 0.0)
o = X[[0, 1]]
print(a.requires_grad, b.requires_grad, c.grad_fn, d.grad_fn, e.grad_fn, f.grad_fn, g.grad_fn, h.grad_fn, k.grad_fn, n.grad_fn, o.grad_fn)
a.sum().backward()
print(X.grad)
