# sum_to_size checks that the size is expandable to the tensor's shape
x = torch.ones(2, 3, requires_grad=True)
print(x.sum_to_size(1, 3), x.sum_to_size((2, 1)), x.sum_to_size(3), x.sum_to_size(()) if False else 0)
y = torch.ones(1, 1)
z = y.sum_to_size((1, 3))
