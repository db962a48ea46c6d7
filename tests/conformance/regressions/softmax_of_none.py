# F.log_softmax(None) fails as PyTorch does: None has no log_softmax (runtime) (generator finding)
x = torch.tensor([1.0, 2.0], requires_grad=True)
g, = torch.autograd.grad(x.sum(), [torch.ones(1, requires_grad=True)], allow_unused=True)
r = F.log_softmax(g, -1)
