# A 0-d integer tensor in an index is an integer: x[torch.tensor(1)] is a SelectBackward0 view (TensorIndexing.h
# applySelect), and writing through it is CopySlices; a 0-d bool tensor stays a mask (IndexBackward0).
X = torch.arange(6.).reshape(2, 3).requires_grad_()
a = X[torch.tensor(1)]
b = X[torch.tensor(1), 0]
c = X[0, torch.tensor(True)]
d = X[torch.tensor(False)]
e = X[:, torch.tensor(-1)]
(a.sum() + b + c.sum() + d.sum() + e.sum()).backward()
Y = X.detach().clone().requires_grad_()
Z = Y * 1
Z[torch.tensor(0)] = 5.0
Z[1, torch.tensor(2, dtype=torch.int32)] = torch.tensor(9.0)
Z.sum().backward()
print(Z)
f = X[torch.tensor(2)]
