# gradcli: --repeat 2
# the second backward without --retain-graph fails, with no line (it is gradcli's call)
x = torch.tensor(0.5, requires_grad=True)
y = torch.exp(x) * x
