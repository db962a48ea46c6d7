# gradcli: --repeat 3 --retain-graph
# three backwards with retain_graph accumulate: 3 * cos(x)
x = torch.tensor(0.5, requires_grad=True)
y = torch.sin(x)
