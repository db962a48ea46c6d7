# generator finding (seed 2026120431): detach_() of an inference tensor outside inference_mode keeps requires_grad
torch.manual_seed(8)
x1 = torch.arange(0.0, 1.375, 0.25, dtype=torch.float64).reshape((3, 2))
x2 = torch.full((3, 4), -0.25, dtype=torch.float32, requires_grad=True)
x3 = torch.zeros(1, 1, dtype=torch.float64)
x4 = torch.tensor([[-2.0, -0.25, 0.25, -2.0], [-1.5, 0.25, 0.0, 2.0], [-2.0, 0.25, 2.0, 0.0]])
x5 = torch.randn((3,))
t6 = F.linear(x2, x4, x5)
t7 = torch.empty((1, 1), dtype=torch.float64).fill_(2.0)
x8 = torch.ones((2, 2), requires_grad=True)
with torch.inference_mode():
    with torch.inference_mode():
        t9 = x3.all()
        x10 = torch.randn((4, 2), requires_grad=True)
        t11 = torch.mm(x2, x10)
    t12 = torch.randint_like(t7, 5)
x10.detach_()
t13 = t11.detach().clone().requires_grad_(False)
t14 = (+t12)
t6.mean().backward()
if x2.grad is not None:
    x2.grad.zero_()
print(t12)
print(t13.shape, t13.dtype, t13.dim(), t13.numel())
