# gradcli: --seed 3
# --seed seeds the generator when the file sets none
x = torch.randn(3, requires_grad=True)
y = (2 * x).sum()
