# gradcli: --backward y --gradient "[1.0, 0.5]" --inputs a
# --backward with --gradient and --inputs: only a gets a gradient, b * g
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b
print(y)
