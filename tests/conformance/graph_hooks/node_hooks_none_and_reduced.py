# a pre-hook returning None gradients: the post-hooks still run with None, AccumulateGrad's hooks too; post-hooks see gradients reduced and cast to each input
a = torch.ones(3, requires_grad=True); b = a * 2
b.grad_fn.register_prehook(lambda gO: (None,))
b.grad_fn.register_hook(lambda gI, gO: print("post", gI, gO))
acc = b.grad_fn.next_functions[0][0]
acc.register_hook(lambda gI, gO: print("acc post", gI, gO))
acc.register_prehook(lambda gO: print("acc pre", gO))
a.register_post_accumulate_grad_hook(lambda t: print("post acc", t.grad))
b.sum().backward()
print(a.grad)
c = torch.ones(2, 1, requires_grad=True)
d = torch.ones(2, 3, requires_grad=True)
e = c * d
e.grad_fn.register_hook(lambda gI, gO: print("bcast post", [g.shape for g in gI]))
e.sum().backward()
f = c.double() * d
f.grad_fn.register_hook(lambda gI, gO: print("dtype post", [g.dtype for g in gI]))
f.sum().backward()
