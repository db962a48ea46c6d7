# gradcli: --set 's0=torch.randn(2, 2)'
# generator finding (seed 2026120631): log_softmax's fused float32 backward of a 0-d tensor (an internal numpy-scalar error in a97e392)
x1 = torch.tensor(1.5, requires_grad=True)
t2 = F.log_softmax(x1, dim=-1)
t3 = t2.detach()
with torch.set_grad_enabled(False):
    t4 = torch.hypot(t3, s0)
    print(t2.retains_grad, t2.size())
t5 = x1 * t3
t6 = F.hardtanh(t2)
t2.backward()
if x1.grad is not None:
    x1.grad.zero_()
x1.backward()
t2.pow_(3.0)
t7 = F.softmin(t3, -1)
x1.backward(retain_graph=True)
print(t5.shape, t5.dtype, t5.dim(), t5.numel())
print(t3.shape, t3.dtype, t3.dim(), t3.numel())
