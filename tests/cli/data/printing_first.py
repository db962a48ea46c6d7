# print output comes first and exactly; markup-like text stays literal
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print("[bold]x[i][/bold]", x[0])
y = x.sum()
