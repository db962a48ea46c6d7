# default_collate of Python numbers: floats -> float64 tensor, ints -> int64, bools -> bool
for data in ([0.5, 1.5, 2.5], [1, 2, 3], [True, False, True], [(1, 2.0), (3, 4.0)]):
    loader = torch.utils.data.DataLoader(data, batch_size=3)
    for b in loader:
        print(b)
