# tuple unpacking of a tensor and for-loops over tensor rows, with f-strings
v = torch.tensor([3.0, 4.0], requires_grad=True)
a, b = v
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
total = torch.tensor(0.0)
for i, row in enumerate(m):
    total = total + row.sum() * (i + 1)
    print(f"row {i}: {row.sum().item():.2f}")
norm = (a * a + b * b) ** 0.5
print(f"{norm.item():.4f}", total)
