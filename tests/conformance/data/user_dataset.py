# a file's own Dataset class (__len__, __getitem__) with DataLoader shuffling, and a model trained on it
torch.manual_seed(1)
nn = torch.nn
Dataset = torch.utils.data.Dataset
class Pairs(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 2)
        self.y = (self.x[:, 0] > self.x[:, 1]).long()
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
ds = Pairs(20)
print(len(ds), ds[3])
loader = torch.utils.data.DataLoader(ds, batch_size=6, shuffle=True, drop_last=True)
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(3):
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
    print(epoch, yb, round(loss.item(), 4))
print(len(loader), isinstance(ds, Dataset))
