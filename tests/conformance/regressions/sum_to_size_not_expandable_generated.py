# gradcli: --backward x2 --retain-graph
# generator finding (seed 2026120632): sum_to_size to a size not expandable to the tensor's is PyTorch's runtime error
x1 = torch.tensor([[-0.25, 2.0], [2.0, -1.5], [2.0, -1.5]], dtype=torch.float64)
x2 = torch.linspace(1.0, 1.5, 4, requires_grad=True)
x3 = torch.randn((3,), dtype=torch.float32, requires_grad=True)
x1.zero_()
t4 = torch.trunc(x2)
t4 *= 2
t5 = torch.trace(x1)
x6 = torch.full((), -0.25, dtype=torch.float64)
t5.mul_(x6)
print(round(x1.detach().sum().item(), 3) if x1.numel() > 0 else 0.0)
t7 = torch.eye(1, dtype=torch.float64)
h1 = x3.register_hook(lambda g: g.clamp(-1.0, 1.0))
h1.remove()
t8 = t7.sum_to_size((1, 3))
t4.mean().backward()
print(x3.grad)
print(x3.grad)
t4.mean().backward(inputs=[x2, x3, t4])
t4 *= 1.0
x3.grad = None
t4.backward(gradient=torch.randn_like(t4))
print(x1)
print(round(x1.detach().sum().item(), 3) if x1.numel() > 0 else 0.0)
