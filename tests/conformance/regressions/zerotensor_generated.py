# generator finding (seed 2026120332): x.grad after sgn's backward is a ZeroTensor; the generated zero_() fails as in PyTorch
x1 = torch.full((2,), -0.5, dtype=torch.float32, requires_grad=True)
t2 = x1.sgn()
t3 = torch.logical_or((x1 > 0), (x1 < 1))
x4 = torch.randn((), dtype=torch.float64)
t5 = torch.sum(x1)
t2.backward(gradient=torch.full_like(t2, 0.5), retain_graph=True)
t6 = torch.masked_fill(x1, torch.tensor(False), -1.0)
if x1.grad is not None:
    x1.grad.zero_()
print(t6)
