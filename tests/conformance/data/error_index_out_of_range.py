# an index past the end of a list dataset: IndexError at the loop line
loader = torch.utils.data.DataLoader([1, 2, 3], sampler=[0, 5], batch_size=2)
for b in loader:
    print(b)
