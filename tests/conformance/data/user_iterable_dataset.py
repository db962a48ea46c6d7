# a file's IterableDataset: the loader reads iter(dataset) in order, batches what it gets, no shuffle
class Count(torch.utils.data.IterableDataset):
    def __init__(self, n):
        self.items = [torch.tensor([float(i), float(i * i)]) for i in range(n)]
    def __iter__(self):
        return iter(self.items)
for batch in torch.utils.data.DataLoader(Count(5), batch_size=2):
    print(batch)
for batch in torch.utils.data.DataLoader(Count(5), batch_size=2, drop_last=True):
    print(batch.shape)
