# register_multi_grad_hook on a leaf during autograd.grad: PyTorch refuses (A leaf node was passed ...)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
torch.autograd.graph.register_multi_grad_hook((a, c), lambda gs: print(len(gs)))
g = torch.autograd.grad(c.sum(), [c], retain_graph=True)
print(g)
g = torch.autograd.grad(c.sum(), [a])
