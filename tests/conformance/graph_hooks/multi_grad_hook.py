# register_multi_grad_hook, modes all and any, with inputs= and remove()
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
d = a * b
def fn(grads):
    print([g is not None for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
h.remove()
c.sum().backward(retain_graph=True)
def fn2(g):
    print("any", g)
torch.autograd.graph.register_multi_grad_hook((a, b), fn2, mode="any")
c.sum().backward(retain_graph=True)
(a*2).sum().backward()
