# explicit samplers: RandomSampler with replacement, a BatchSampler passed as batch_sampler, SequentialSampler
torch.manual_seed(3)
ds = torch.utils.data.TensorDataset(torch.arange(6))
rs = torch.utils.data.RandomSampler(ds, replacement=True, num_samples=40)
print(len(rs))
loader = torch.utils.data.DataLoader(ds, batch_size=16, sampler=rs)
for (b,) in loader:
    print(b)
bs = torch.utils.data.BatchSampler(torch.utils.data.SequentialSampler(ds), batch_size=4, drop_last=False)
print(len(bs))
for (b,) in torch.utils.data.DataLoader(ds, batch_sampler=bs):
    print(b)
rs2 = torch.utils.data.RandomSampler(ds)
for (b,) in torch.utils.data.DataLoader(ds, sampler=rs2, batch_size=3):
    print(b)
