# saved_tensors_hooks around a non-reentrant checkpoint sees only the inputs checkpoint saves; inside the function it wins
def pack(x):
    print("pack", x.shape, x.grad_fn)
    return x
def unpack(x):
    print("unpack", x.shape)
    return x
a = torch.ones(2, requires_grad=True)
def fn(t):
    return (t * 2).sin()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = torch.utils.checkpoint.checkpoint(fn, a, use_reentrant=False)
print("bwd")
y.sum().backward()
def fn2(t):
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        return (t * 2).sin()
y = torch.utils.checkpoint.checkpoint(fn2, a, use_reentrant=False)
print("bwd")
y.sum().backward()
