# gradcli: --dtype float64 --requires-grad x
# a free input is torch.tensor(1.0) of the default dtype, bound after --dtype takes effect
print(x.dtype)
y = x.exp()
