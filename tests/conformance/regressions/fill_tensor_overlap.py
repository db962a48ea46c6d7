# x[i] = v is fill_(tensor) for a 0-d v (a number too), which refuses an expanded destination (internal
# overlap) while fill_(number) does not (generator finding)
a = torch.zeros(1, 1).expand(1, 3)
a[0].fill_(1.0)
print(a)
x3 = torch.rand((1, 1), requires_grad=True)
t9 = torch.broadcast_to(x3.rsqrt(), (1, 3))
t9[0] = (x3 * 2).sum()
