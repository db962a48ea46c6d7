# DataLoader(batch_size): batches stack the samples; the last one is shorter; len() counts batches
X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10) % 3
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=4)
print(len(loader), loader.batch_size, loader.drop_last)
for i, (xb, yb) in enumerate(loader):
    print(i, xb.shape, xb.dtype, yb)
batch = None
for b in loader:
    batch = b
print(len(batch), batch[0])
print(len(loader.dataset))
