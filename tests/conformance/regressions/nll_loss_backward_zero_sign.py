# nll_loss/cross_entropy backward writes -weight * grad at the targets into zeros: +0.0 elsewhere even for a -0.0 grad
x = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 1.0]], requires_grad=True)
t = torch.tensor([1, 2])
for red in ["none", "mean", "sum"]:
    l = F.nll_loss(x, t, weight=torch.tensor([1.0, 0.0, 2.0]), reduction=red)
    g, = torch.autograd.grad(l.sum() * -0.0, [x])
    print(red, g)
    g, = torch.autograd.grad(F.cross_entropy(x, t, reduction=red).sum() * -0.0, [x])
    print(red, g)
