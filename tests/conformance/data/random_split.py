# random_split by lengths or by fractions: Subsets over torch.randperm of the default stream
torch.manual_seed(1)
ds = torch.utils.data.TensorDataset(torch.arange(10.0))
train, val = torch.utils.data.random_split(ds, [7, 3])
print(train.indices, val.indices, len(train), len(val))
print(train[0], val[2])
a, b, c = torch.utils.data.random_split(ds, [0.5, 0.3, 0.2])
print(len(a), len(b), len(c), a.indices)
print(torch.randn(2))
