# issue 21: the mixed small-op chain -- 25,000 iterations of y = tanh(y * 1.01 + w) * 0.99 on shape (4,),
# w a shared leaf (100,000 ops; 25,000 gradients accumulate into w), then backward
w = torch.full((4,), 0.01, requires_grad=True)
y = torch.ones(4, requires_grad=True)
for i in range(25_000):
    y = torch.tanh(y * 1.01 + w) * 0.99
loss = y.sum()
loss.backward()
