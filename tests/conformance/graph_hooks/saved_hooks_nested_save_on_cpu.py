# nested saved_tensors_hooks: only the innermost pair is used; reentrant checkpoint packs its inputs and the recomputation; save_on_cpu drops the version check (pin_memory: a copy)
def pack(x):
    print("pack", x.shape, x.grad_fn)
    return x
def unpack(x):
    print("unpack", x.shape)
    return x
def p2(x):
    print("p2", x.shape); return ("wrapped", x)
def u2(x):
    print("u2", x[0]); return x[1]
a = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    with torch.autograd.graph.saved_tensors_hooks(p2, u2):
        y = a.sin()
    z = y.cos()
(y+z).sum().backward()
def fn(t):
    return (t * 2).sin()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = torch.utils.checkpoint.checkpoint(fn, a, use_reentrant=True)
    print("bwd")
    y.sum().backward()
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = x.clone()
    z = y.sin()
y.add_(1)
z.sum().backward()
print(x.grad)
x.grad = None
with torch.autograd.graph.save_on_cpu(pin_memory=True):
    y = x.clone()
    z = y.sin()
y.add_(1)
z.sum().backward()
print(x.grad)
