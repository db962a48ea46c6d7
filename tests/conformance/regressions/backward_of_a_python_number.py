# torch.autograd.backward with a Python number among the tensors
x = torch.ones(2, 3, requires_grad=True)
torch.autograd.backward([1.5, x.sum()])
