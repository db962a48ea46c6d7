# 1,000,000-node 0-d chain + backward: graph depth (no recursion), garbage, teardown
x = torch.tensor(1.0, requires_grad=True)
y = x
for i in range(1_000_000):
    y = y * 1.0000001
y.backward()
