# drop_last=True drops the short last batch, and len() says so
ds = torch.utils.data.TensorDataset(torch.arange(7.0))
loader = torch.utils.data.DataLoader(ds, batch_size=3, drop_last=True)
print(len(loader))
for (xb,) in loader:
    print(xb)
loader1 = torch.utils.data.DataLoader(ds)
print(len(loader1))
for b in loader1:
    print(b)
