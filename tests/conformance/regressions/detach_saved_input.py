# detach_() of a saved non-leaf input fails the backward with PyTorch's runtime error (before the version
# check); a saved output, a saved leaf and ctx.saved_tensors are not affected (generator finding)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x
a = torch.rand(3, requires_grad=True)
b = a.exp()
x = torch.rand(3)
c = b * 2 + F.apply(a * 1) * x
b.detach_()
x.detach_()
c.sum().backward()
d = a * 1
e = d * d
d.detach_()
e.sum().backward()
