# a beta outside [0, 1): ValueError "Invalid beta parameter at index 1: 1.0"
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.Adam([w], betas=(0.9, 1.0))
