# copy_ (and x[key] = v through it) records no history into an integer or bool tensor, while fill_ with a grad-requiring
# 0-d tensor does (PyTorch quirk); trace of a bool matrix is not implemented (generator findings)
x = torch.tensor([1.5, 2.5], requires_grad=True)
t = torch.zeros(2, dtype=torch.long)
t.copy_(x)
u = torch.zeros(2, dtype=torch.long)
u.fill_(x[0])
v = torch.zeros(2, dtype=torch.long)
v[:] = x
w = torch.zeros(2, dtype=torch.long)
w[0] = x[0]
b = torch.zeros(2, dtype=torch.bool)
b.copy_(x)
c = torch.zeros(2, dtype=torch.long)
c[:] = x[0]
d = torch.zeros(3, dtype=torch.long)
d[0:2] = x[1]
print(t, u, v, w, b, c, d)
print(torch.trace(torch.ones(2, 2, dtype=torch.int32)))
torch.trace(torch.ones(2, 2, dtype=torch.bool))
