# a custom Function's tangents come from its jvp staticmethod (ctx.save_for_forward); without one it is
# PyTorch's NotImplementedError
import torch.autograd.forward_ad as fwAD


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_forward(x)
        ctx.k = k
        return x ** 2 * k

    @staticmethod
    def backward(ctx, g):
        return None, None

    @staticmethod
    def jvp(ctx, x_t, k_t):
        x, = ctx.saved_tensors
        print("jvp", x_t, k_t, x)
        return 2 * x * x_t * ctx.k


with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(3), torch.tensor([1., 2., 3.]))
    try:
        Square.apply(d)
    except NotImplementedError as e:
        print(e)
    out = ScaledSquare.apply(d, 3.0)
    print(out)
    print(Square.apply(torch.ones(2)))
    print(fwAD.unpack_dual(ScaledSquare.apply(d, 2.0).sum()).tangent)
