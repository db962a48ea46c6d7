# None among autograd.grad's inputs is PyTorch's runtime error (not a TypeError)
a = torch.rand(3, requires_grad=True)
y = (a * 2).sum()
torch.autograd.grad(y, [a, None])
