# default_collate cannot batch None: TypeError at the loop line
loader = torch.utils.data.DataLoader([None, None], batch_size=2)
for b in loader:
    print(b)
