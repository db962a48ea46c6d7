# gradcli: --seed 5
# generator finding (seed 2026120532): torch.abs of an inference tensor that requires grad outside inference_mode is PyTorch's abs(out=) error
x1 = torch.zeros((4, 3), dtype=torch.float64)
t2 = torch.cos(x1)
x3 = torch.randn((3, 1), dtype=torch.float64)
x4 = torch.tensor([0.25], dtype=torch.float64, requires_grad=True)
t5 = torch.addmm(x4, x1, x3, beta=0.5, alpha=0.5)
with torch.inference_mode():
    x6 = torch.rand((3,), dtype=torch.float64, requires_grad=True)
    t7 = (t2 < x6)
    t8 = torch.any(x3, dim=0)
t9 = torch.ones_like(x1)
t10 = F.log_softmax(t2, dim=0)
t11 = F.leaky_relu(t2)
t12 = torch.abs(x6)
x13 = torch.tensor([[-2.0], [-2.0], [0.0]], dtype=torch.float64)
t14 = F.l1_loss(x3, x13, reduction='none')
t15 = torch.full_like(t2, -0.25)
