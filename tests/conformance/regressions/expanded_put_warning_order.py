# the expanded-tensor deprecation warning of index_put_/masked_fill_ comes from the kernel, after autograd's checks
x = torch.tensor([[-2.0, 2.0]], requires_grad=True)
y = x * 1
t = y.expand(2, 2)
t[t > 0] = 1.5
t.masked_fill_(t < 0, 3.0)
print(t, y)
z = x.expand(2, 2)
z.masked_fill_(z > 0, 1.0)
