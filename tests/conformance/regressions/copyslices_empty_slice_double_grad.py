# an empty-slice write; the second grad reaches both the written base and the leaf through CopySlices' recorded backward
x2 = torch.tensor([[-0.5, -1.5]], requires_grad=True)
t6 = x2.sin()
t6[:0] = 2.0
g8, = torch.autograd.grad((t6 * t6).sum(), [x2], create_graph=True)
a, b = torch.autograd.grad(g8.mean(), [t6, x2])
