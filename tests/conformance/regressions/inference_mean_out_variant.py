# mean/var/std over all dims/logsumexp of an inference tensor that requires grad, grad mode on: PyTorch's out= kernel refuses (runtime); var over one dim, sum and no_grad are fine (generator finding)
with torch.inference_mode():
    x = torch.ones(2, 3, requires_grad=True)
    z = torch.ones(2, 3)
with torch.no_grad():
    a = x.mean()
    b = x.logsumexp(0)
c = z.mean()
d = x.sum()
print(a, b, c, d)
r = x.var(0)
s = x.std(dim=1)
m = x.mean()
