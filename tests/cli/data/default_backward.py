# the default backward runs on the last tensor assigned: d/dx sum(x*x) = 2x
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
