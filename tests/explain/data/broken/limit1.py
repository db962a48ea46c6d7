x = torch.tensor(2.0, requires_grad=True)
y = torch.zeros(100000, 100000)
z = x * 2
