# an in-place copy from a tensor that partially overlaps the destination is refused (flatten of a 0-d tensor is a view)
x = torch.randn(())
t = torch.flatten(x)
a = torch.randn(3)
b = a[0:2]
print(x.shape, t.shape)
t.copy_(x)
