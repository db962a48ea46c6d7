# gradcli: --set "x=[1, 2, 3]" --requires-grad x --backward y --gradient "torch.ones(3) * k"
# --set with a list, --gradient as an expression naming the file's names
k = torch.tensor(2.0)
y = x * x
