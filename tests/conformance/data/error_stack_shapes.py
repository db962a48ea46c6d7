# tensors of different shapes cannot be stacked into a batch
loader = torch.utils.data.DataLoader([torch.ones(2), torch.ones(3)], batch_size=2)
for b in loader:
    print(b)
