# Subset picks items by index; dataset + dataset is a ConcatDataset; both work with a DataLoader
ds1 = torch.utils.data.TensorDataset(torch.arange(4.0))
ds2 = torch.utils.data.TensorDataset(torch.arange(10.0, 13.0))
both = ds1 + ds2
print(len(both), both.cumulative_sizes, both[5], both[-1])
sub = torch.utils.data.Subset(both, [6, 0, 4])
print(len(sub), sub[0])
for (b,) in torch.utils.data.DataLoader(sub, batch_size=2):
    print(b)
