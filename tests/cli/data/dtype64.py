# gradcli: --dtype float64
# --dtype float64 changes the default dtype of new float tensors
x = torch.tensor([0.1, 0.2], requires_grad=True)
y = (x * x).sum()
print(y)
