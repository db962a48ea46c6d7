# Node.register_hook returning a Tensor instead of a tuple: TypeError
a = torch.ones(3, requires_grad=True); b = a.clone()
b.grad_fn.register_hook(lambda gI, gO: gO[0]*2)
b.sum().backward()
