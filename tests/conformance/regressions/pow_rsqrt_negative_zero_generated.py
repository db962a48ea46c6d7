# generator finding (seed 2026120432): (-0.0) ** -0.5 is rsqrt(-0.0) = -inf in PyTorch
x1 = torch.zeros(3, 2, dtype=torch.float32)
t2 = torch.divide(x1, -0.25)
with torch.set_grad_enabled(False):
    with torch.no_grad():
        t3 = t2.amin()
        t3.pow_(-0.5)
        t4 = (x1 != -0.25)
    print(t4.grad_fn.next_functions if t4.grad_fn is not None else ())
    t5 = torch.rand_like(t2)
t6 = t2.maximum(t5)
t7 = torch.rand_like(t5)
t2 *= 3
t6.sum().backward()
t6.sum().backward()
torch.autograd.backward(x1, grad_tensors=torch.randn_like(x1), retain_graph=True)
t8 = F.l1_loss(t7, t2)
print(t8.shape, t8.dtype, t8.dim(), t8.numel())
