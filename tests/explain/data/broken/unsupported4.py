x = torch.tensor(2.0, requires_grad=True)
y = eval("x * 2")
