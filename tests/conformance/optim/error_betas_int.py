# betas must both be floats: (0, 0.999) has an int
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.AdamW([w], betas=(0, 0.999))
