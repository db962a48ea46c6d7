# bitwise ops of 0-d tensors stay tensors (was an internal error on in-place); float operands are runtime errors (generator finding)
t = torch.tensor(3)
u = torch.bitwise_not(t)
u **= 1
m = torch.tensor(2.0).isnan()
m |= True
print(u, m)
f = torch.tensor([3]) & 1.5
