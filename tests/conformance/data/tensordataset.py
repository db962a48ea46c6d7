# TensorDataset: item i is a tuple of each tensor's row i; len is the first dimension; .tensors holds them
X = torch.arange(12.0).reshape(4, 3)
y = torch.tensor([0, 1, 0, 1])
ds = torch.utils.data.TensorDataset(X, y)
print(len(ds))
print(ds[1])
print(ds[-1][0], ds[2][1])
xs, ys = ds[1:3]
print(xs, ys)
print(len(ds.tensors), ds.tensors[1] is y)
