# samples of different lengths: RuntimeError "each element in list of batch should be of equal size"
loader = torch.utils.data.DataLoader([[1, 2], [3]], batch_size=2)
for b in loader:
    print(b)
