# generator finding (seed 2026120631): linear's 1-d input with a bias is addmm; a freed AddmmBackward0 fails even when only the bias gradient is asked for
x1 = torch.zeros(3, dtype=torch.float32)
x1.requires_grad = False
with torch.enable_grad():
    x2 = torch.full((3, 3), 0.5, dtype=torch.float32, requires_grad=True)
    x3 = torch.zeros((3,), dtype=torch.float32, requires_grad=True)
    t4 = F.linear(x1, x2, x3)
t5 = t4.select(0, -2)
torch.autograd.backward(x3.sum(), retain_graph=True)
t5.backward()
g6, = torch.autograd.grad(t5, [x3], allow_unused=True)
