# gradcli: --retain-grad h
# --retain-grad keeps the non-leaf gradient: d/dh sum(h**2) = 2h
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
out = (h ** 2).sum()
