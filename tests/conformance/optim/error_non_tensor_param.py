# a parameter that is not a tensor: TypeError "optimizer can only optimize Tensors"
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w, 1.5], lr=0.1)
