# A custom Function with a deliberately wrong backward: autograd trusts it, so x.grad is silently wrong (`gradcli check` reports a mismatch).
#   gradcli check samples/wrong_backward.py --per-node   names SquareBackward (line 18) as the wrong rule
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * x      # wrong: d(x*x)/dx is 2 * x


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 1.0, -1.5], requires_grad=True)
h = torch.sin(x) * w
y = Square.apply(h)
loss = y.sum()
print(y.grad_fn)
