# gradcli: --dtype float64
# generator finding (seed 2026120332): split of an inference tensor outside inference_mode is not recorded
torch.manual_seed(10)
x1 = torch.tensor([[2.0, 1.0, -0.25], [-0.25, 1.5, 1.0], [0.0, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)
x2 = torch.full((2,), 1.0, dtype=torch.float64)
with torch.inference_mode():
    x3 = torch.ones(3, dtype=torch.float64, requires_grad=True)
    t4 = torch.maximum(x1, x3)
    x1.copy_(x3)
x5 = torch.randn((3,), dtype=torch.float64, requires_grad=True)
t6 = torch.mv(x1, x5)
x7 = torch.tensor([-0.25, 1.5, 1.0], requires_grad=True)
t8 = x3.split(3)[-1]
t9 = torch.flip(x1, (0,))
print(x5.grad_fn.next_functions if x5.grad_fn is not None else ())
