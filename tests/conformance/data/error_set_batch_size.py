# a DataLoader's batch_size cannot change after it is built: ValueError
loader = torch.utils.data.DataLoader([1, 2, 3], batch_size=2)
print(len(loader))
loader.batch_size = 3
