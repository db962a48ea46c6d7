# Node.register_hook changing a gradient's size: runtime error
a = torch.ones(3, requires_grad=True); b = a.clone()
b.grad_fn.register_hook(lambda gI, gO: (torch.ones(2),))
b.sum().backward()
