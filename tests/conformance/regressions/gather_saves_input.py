# gather saves its input: modifying it in place before backward is inplace_modified (generator finding)
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = a * 1
z = y.gather(1, torch.tensor([[0], [1]]))
y.add_(1)
z.sum().backward()
