# lr=None: the comparison lr < 0.0 fails with a TypeError
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=None)
