# a tensor given directly instead of an iterable of tensors: TypeError
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.Adam(w, lr=0.1)
