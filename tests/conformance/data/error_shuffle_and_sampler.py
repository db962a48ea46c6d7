# shuffle=True with a sampler: ValueError
ds = torch.utils.data.TensorDataset(torch.ones(3))
loader = torch.utils.data.DataLoader(ds, shuffle=True, sampler=torch.utils.data.SequentialSampler(ds))
