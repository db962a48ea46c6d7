# the gradient of sgn is one of PyTorch's storage-less zero tensors: the oracle records it as zeros (it crashed on tolist())
x = torch.ones(3, requires_grad=True)
q, = torch.autograd.grad(x.sgn().sum(), x)
print(q)
