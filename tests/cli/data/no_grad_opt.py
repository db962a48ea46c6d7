# gradcli: --no-grad
# --no-grad: nothing records a graph, so no default backward runs
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
