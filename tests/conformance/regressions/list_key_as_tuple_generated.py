# A list index holding a tensor, a sequence, None or Ellipsis is read as a tuple of indices, with PyTorch's
# deprecation warning (treatSequenceAsTuple); other lists are one index tensor, floats truncated toward zero
# (generator finding: the fuzz mutation X[[0, ()]] was a gradcli internal error).
X = torch.arange(6.).reshape(2, 3).requires_grad_()
a = X[[0, ()]]
b = X[[0, None]]
c = X[[[0, 1], [0, 1]]]
d = X[[0, ...]]
e = X[[torch.tensor(1), 0]]
f = X[[0, (1, 2)]]
g = X[[1.5, -0.5]]
h = X[0, ()]
(a.sum() + b.sum() + c.sum() + d.sum() + e + f.sum() + g.sum() + h.sum()).backward()
Y = torch.zeros(2, 3)
Y[[0, None]] = 7.0
Y[[1, [0, 2]]] = torch.tensor([1.0, 2.0])
print(Y)
r = X[[[0, 1], [0]], 0]
