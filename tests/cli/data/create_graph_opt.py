# gradcli: --backward y --create-graph
# --create-graph makes x.grad itself differentiable
x = torch.tensor(3.0, requires_grad=True)
y = x ** 3
