# a grad-mode decorator on a custom Function's staticmethod and on a helper called from inside it
@torch.no_grad
def scale(t):
    return t * 3
class Twice(torch.autograd.Function):
    @staticmethod
    @torch.enable_grad()
    def forward(ctx, a):
        ctx.save_for_backward(a)
        print("grad enabled in forward:", torch.is_grad_enabled())
        return a * 2
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return scale(g)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Twice.apply(x).sum()
y.backward()
print(x.grad, scale(x).requires_grad)
