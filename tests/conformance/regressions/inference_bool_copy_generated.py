# gradcli: --seed 5
# generator finding (seed 2026120532): .bool() of an inference tensor that requires grad is a leaf without history
x1 = torch.zeros((4, 3), dtype=torch.float64)
t2 = torch.ne(x1, 2.0)
x3 = torch.full((3,), 0.25, dtype=torch.float64)
x1.div_((x3.abs() + 0.5))
with torch.inference_mode():
    x4 = torch.rand((3,), dtype=torch.float64, requires_grad=True)
    t5 = (x3 < x4)
    t6 = torch.any(x3, dim=-1)
t7 = torch.selu(x3)
t8 = x3.cos()
print(x1)
with torch.inference_mode():
    print(t6.tolist())
    t9 = F.l1_loss(x4, t7, reduction='none')
    t10 = t9.frac()
x3 *= x4
t11 = x4.bool()
x4.mean().backward(retain_graph=True, create_graph=True)
x12 = torch.rand((), dtype=torch.float64)
t8.add_(x12)
x12 *= -0.5
x3.sum().backward(create_graph=True)
t13 = torch.randn(3, dtype=torch.float64)
print(t11.grad)
print(t9)
print(x3)
