# random_split lengths must add up to the dataset's length: ValueError
ds = torch.utils.data.TensorDataset(torch.ones(5))
a, b = torch.utils.data.random_split(ds, [3, 3])
