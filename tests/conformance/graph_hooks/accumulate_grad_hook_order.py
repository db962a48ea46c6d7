# hooks on AccumulateGrad: tensor hook, node pre-hook, post-accumulate hook, node post-hook, in PyTorch's order
a = torch.ones(3, requires_grad=True); b = a * 2
acc = b.grad_fn.next_functions[0][0]
print(acc)
acc.register_hook(lambda gI, gO: print("acc post", gI, gO))
acc.register_prehook(lambda gO: print("acc pre", gO))
a.register_hook(lambda g: print("tensor hook", g))
a.register_post_accumulate_grad_hook(lambda t: print("post acc", t.grad))
b.sum().backward()
