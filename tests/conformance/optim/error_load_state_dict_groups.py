# load_state_dict with a different number of groups: ValueError
w = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
opt2 = torch.optim.SGD([{"params": [w]}, {"params": [v]}], lr=0.1)
opt.load_state_dict(opt2.state_dict())
