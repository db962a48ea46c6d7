# even without shuffling, each pass over a DataLoader draws one 64-bit base seed from the default stream
torch.manual_seed(7)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(3)), batch_size=2)
a = torch.rand(2)
for (xb,) in loader:
    pass
b = torch.rand(2)
torch.manual_seed(7)
c = torch.rand(2)
d = torch.rand(2)
print(a, b, c, d)
print(torch.equal(b, d))
