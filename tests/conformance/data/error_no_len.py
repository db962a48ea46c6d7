# a dataset without len(): TypeError when the loader is iterated
loader = torch.utils.data.DataLoader(5, batch_size=2)
print("built")
for b in loader:
    print(b)
