# 100,000-op chain on shape-(4,) tensors in a for loop + backward: per-op cost of interpreter + engine
x = torch.ones(4, requires_grad=True)
y = x
for i in range(100_000):
    y = y * 1.00001
loss = y.sum()
loss.backward()
