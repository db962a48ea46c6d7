# issue 21: fan-out into a running total -- 10,000 branches tanh(x * c + 0.5).sum() added to a total, backward
x = torch.ones(4, requires_grad=True)
total = torch.zeros(())
for i in range(10_000):
    total = total + torch.tanh(x * (i * 1e-4) + 0.5).sum()
total.backward()
