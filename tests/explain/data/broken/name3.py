x = torch.tensor(2.0, requires_grad=True)
y = x * 2
loss = y.sum()
los.backward()
