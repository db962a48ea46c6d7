# gradcli: --backward y --gradient "torch.tensor([2.0, 0.5]) * scale" --requires-grad x
# --gradient as an expression evaluated after the file (it may name the file's tensors);
# --requires-grad on a name the file assigns
x = torch.tensor([1.0, 3.0])
scale = torch.tensor(4.0)
y = x ** 2
