# scatter with a src larger than its index: PyTorch's backward fails with the invalid-gradient error
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
src = torch.tensor([[10., 20., 30.], [40., 50., 60.]], requires_grad=True)
y = x.scatter(0, torch.tensor([[1, 0, 1]]), src)
y.sum().backward()
