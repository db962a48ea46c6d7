# Node.register_prehook changing a gradient's size
a = torch.ones(3, requires_grad=True); b = a * 2
b.grad_fn.register_prehook(lambda gO: (torch.ones(2),))
b.sum().backward()
