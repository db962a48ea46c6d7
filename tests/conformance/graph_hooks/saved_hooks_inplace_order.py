# pack/unpack order for exp, an in-place mul_ (PyTorch saves a clone of self), indexing, stack/prod; create_graph unpacks again
a = torch.tensor([1., 2.], requires_grad=True)
def pack(x):
    print("pack", x)
    return x
def unpack(x):
    print("unpack", x)
    return x
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = a.exp()
    h = a * 1
    h.mul_(a)
    w = h[0] * 2
    v = torch.stack([a, a]).prod(0)
(y.sum() + h.sum() + w + v.sum()).backward(create_graph=True)
print(a.grad)
a.grad.sum().backward()
print(a.grad)
