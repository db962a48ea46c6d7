# A custom Function whose forward/backward lack @staticmethod (real code does: ohhan777's MyReLU):
# PyTorch calls them through the class, so they run as static methods; a helper def is callable too.
import torch


class Double(torch.autograd.Function):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 2 + x * 0


class Triple(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    def backward(self, g):
        return g * 3

    def scale(self):
        return 3


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = Double.apply(x)
print(y.grad_fn.name(), y)
z = Triple.apply(y)
z.sum().backward()
print(x.grad, Triple.scale(None))
