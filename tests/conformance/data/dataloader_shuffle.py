# shuffle=True: RandomSampler draws a seed from the default stream at each pass, then randperm on its own generator
torch.manual_seed(0)
ds = torch.utils.data.TensorDataset(torch.arange(10), torch.arange(10) * 10)
loader = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True)
for epoch in range(3):
    for a, b in loader:
        print(epoch, a, b)
print(torch.randn(3))
torch.manual_seed(0)
first = [a for a, b in loader]
print(first)
