# a diamond: a is used twice, c is a view chain
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c.view(2, 1).t()
loss = (d + a).sum()
