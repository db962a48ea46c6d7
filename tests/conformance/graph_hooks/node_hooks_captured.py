# node pre/post hooks, tensor hook and retain_grad; autograd.grad only captures (no node hooks); a node backward(inputs=) does not need
a = torch.ones(3, requires_grad=True); b = a * 2; c = b * 3
b.grad_fn.register_hook(lambda gI, gO: print("post", gI, gO))
b.grad_fn.register_prehook(lambda gO: print("pre", gO))
b.register_hook(lambda g: print("tensor hook", g))
b.retain_grad()
c.sum().backward(retain_graph=True)
print(b.grad)
g = torch.autograd.grad(c.sum(), b)
print(g)
x = torch.ones(3, requires_grad=True); d = b * x
d.sum().backward(inputs=[x])
print(x.grad)
