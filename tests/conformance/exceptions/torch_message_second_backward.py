# str(e) of second_backward is PyTorch's text: backward twice, autograd.grad twice, a custom Function's saved tensors
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
z = (x.sin() ** 2).sum()
torch.autograd.grad(z, x)
try:
    torch.autograd.grad(z, x)
except RuntimeError as e:
    print("RuntimeError:", e)
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return 2 * a * g
w = Square.apply(x).sum()
w.backward()
try:
    w.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
