# generator finding (seed 2026120632): the regenerated AsStridedBackward0 of an expanded view sums the gradients of the elements that share a base element
x1 = torch.tensor([[-1.0]], dtype=torch.float32, requires_grad=True)
x2 = torch.arange(-2.0, -1.625, 0.25, dtype=torch.float64).reshape((1, 2))
t3 = F.tanhshrink(x1)
with torch.set_grad_enabled(True):
    t4 = torch.broadcast_to(t3, (2, 1))
    t5 = 3.0 / x1
    t3.add_(x1)
g6, g7 = torch.autograd.grad((t4 * t4).sum(), [t3, x1], retain_graph=True)
print(x2)
g8, g9 = torch.autograd.grad(x1, [t3, t5], grad_outputs=torch.ones([1, 1], dtype=torch.float32), retain_graph=True)
print(x1.grad)
t4.mean().backward()
t3.mul_(x1)
print(t3.shape, t3.dtype, t3.dim(), t3.numel())
