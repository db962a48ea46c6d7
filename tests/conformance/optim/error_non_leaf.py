# a non-leaf tensor: ValueError "can't optimize a non-leaf Tensor"
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
opt = torch.optim.SGD([h], lr=0.1)
