# a file's Dataset without __len__: building the loader works, len() and iteration fail as in PyTorch
class NoLen(torch.utils.data.Dataset):
    def __getitem__(self, i):
        return torch.tensor(float(i))
loader = torch.utils.data.DataLoader(NoLen(), batch_size=2)
print("built")
n = len(loader)
