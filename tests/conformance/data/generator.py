# torch.Generator().manual_seed(n) for random_split and DataLoader(generator=): their own stream, not the default
g = torch.Generator().manual_seed(42)
print(g.initial_seed(), g.device, torch.Generator().initial_seed())
print(torch.randn(2, generator=g))
ds = torch.utils.data.TensorDataset(torch.arange(6))
a, b = torch.utils.data.random_split(ds, [4, 2], generator=torch.Generator().manual_seed(0))
print(a.indices, b.indices)
l = torch.utils.data.DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(1))
for (x,) in l:
    print(x)
print(isinstance(g, torch.Generator))
