# assigning .requires_grad, .grad and .data as in PyTorch
x = torch.ones(2)
x.requires_grad = True
y = (x * 3).sum()
y.backward()
print(x.grad)
x.grad = None
print(x.grad)
x.data = torch.tensor([5.0, 6.0])
z = (x * x).sum()
z.backward()
print(x, x.grad)
