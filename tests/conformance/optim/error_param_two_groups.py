# one parameter in two groups: ValueError "some parameters appear in more than one parameter group"
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([{"params": [w]}, {"params": [w], "lr": 0.5}], lr=0.1)
