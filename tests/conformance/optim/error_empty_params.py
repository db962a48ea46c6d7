# an empty parameter list: ValueError "optimizer got an empty parameter list"
params = []
opt = torch.optim.RMSprop(params)
