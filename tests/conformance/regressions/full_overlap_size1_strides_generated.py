# generator finding (seed 2026120632): an expand to the same shape is the same memory geometry (size-1 strides do not matter), so mul_ by it is a full overlap, allowed
x1 = torch.tensor([[-1.0]], dtype=torch.float32, requires_grad=True)
x2 = torch.tensor([[-2.0, -1.0]], dtype=torch.float64)
t3 = F.tanhshrink(x1)
with torch.set_grad_enabled(True):
    t4 = torch.broadcast_to(t3, (1, 1))
    t5 = 3.0 / x1
    t3.mul_(t4)
x2.backward(gradient=torch.ones_like(x2))
print(t3.shape, t3.dtype, t3.dim(), t3.numel())
