# gradcli: --backward y --gradient ones
# --gradient ones for a non-scalar target
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x ** 3
