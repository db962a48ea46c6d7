# *args and **kwargs forwarding into torch functions
def make(*shape, **kw):
    return torch.ones(*shape, **kw)
t = make(2, 3, dtype=torch.float64, requires_grad=True)
s = (t * 2).sum()
print(t.dtype, t.shape)
