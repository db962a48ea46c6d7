# batch_sampler excludes batch_size: ValueError
ds = torch.utils.data.TensorDataset(torch.ones(4))
bs = torch.utils.data.BatchSampler(torch.utils.data.SequentialSampler(ds), 2, False)
loader = torch.utils.data.DataLoader(ds, batch_size=2, batch_sampler=bs)
