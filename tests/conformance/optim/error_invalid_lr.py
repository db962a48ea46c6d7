# a negative learning rate: PyTorch's ValueError "Invalid learning rate: -1" at the constructor's line
w = torch.tensor([1.0, 2.0], requires_grad=True)
print("before")
opt = torch.optim.SGD([w], lr=-1)
print("after")
