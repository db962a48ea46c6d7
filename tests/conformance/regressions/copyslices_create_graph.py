# CopySlices under create_graph: the base's gradient has a history (CopySlices), so it can be differentiated again
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = leaf.clone()
x[0] = 5.0
g, = torch.autograd.grad((x * x).sum(), [leaf], create_graph=True)
h, = torch.autograd.grad(g.sum(), [leaf])
