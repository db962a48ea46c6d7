# hooks on a multi-output node (UnbindBackward0) and a pre-hook replacing its gradients
a = torch.ones(3, requires_grad=True); b,c = a.unbind(0)[:2]
b.grad_fn.register_hook(lambda gI, gO: print("post", gI, gO))
b.grad_fn.register_prehook(lambda gO: print("pre", gO))
b.sum().backward()
h = b.grad_fn.register_prehook(lambda gO: (gO[0] * 10, None, None))
b.backward()
print(a.grad)
h.remove()
