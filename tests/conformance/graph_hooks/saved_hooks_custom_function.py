# a custom Function's saved tensors are packed once and unpacked at each ctx.saved_tensors read, also in a double backward
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        y, = ctx.saved_tensors
        return 2 * x * g
def pack(x):
    print("pack", x)
    return x.clone()
def unpack(x):
    print("unpack", x)
    return x
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = Sq.apply(a)
    z = y.exp()
z.sum().backward(create_graph=True)
print(a.grad)
g = a.grad
g.sum().backward()
print(a.grad)
