# a file's Dataset whose __getitem__ fails: the error keeps its kind and the line inside __getitem__
class Broken(torch.utils.data.Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        if i == 2:
            return torch.ones(2) @ torch.ones(3)
        return torch.ones(2) * i
loader = torch.utils.data.DataLoader(Broken(), batch_size=2)
for b in loader:
    print(b)
