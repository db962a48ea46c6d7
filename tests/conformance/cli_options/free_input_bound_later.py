# gradcli: --requires-grad x
# x is bound by the file (after it is read), so it is not free: the read fails with a name error, as in PyTorch
y = x * 2
x = torch.tensor(1.0)
