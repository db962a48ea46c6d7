# batch_size must be a positive int: ValueError from BatchSampler
ds = torch.utils.data.TensorDataset(torch.ones(3))
loader = torch.utils.data.DataLoader(ds, batch_size=0)
