x = torch.tensor(2.0, requires_grad=True)
y = x.exp() * 3
y.backward()
y.backward()
