# batch_size=None turns auto-batching off: samples come one by one, tuples as lists (default_convert)
ds = torch.utils.data.TensorDataset(torch.tensor([1.0, 2.0]), torch.tensor([3, 4]))
loader = torch.utils.data.DataLoader(ds, batch_size=None)
print(len(loader))
for sample in loader:
    print(sample)
