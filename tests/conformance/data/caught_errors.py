# data errors caught by PyTorch's classes: AssertionError, IndexError, TypeError, ValueError, RuntimeError
try:
    torch.utils.data.TensorDataset(torch.ones(3), torch.ones(2))
except AssertionError as e:
    print("AssertionError:", e)
ds = torch.utils.data.TensorDataset()
try:
    len(ds)
except IndexError as e:
    print("IndexError:", e)
try:
    for b in torch.utils.data.DataLoader([None], batch_size=1):
        pass
except TypeError as e:
    print("TypeError:", e)
try:
    torch.utils.data.DataLoader([1, 2], batch_size=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    for b in torch.utils.data.DataLoader([[1], [2, 3]], batch_size=2):
        pass
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.utils.data.Dataset()[0]
except NotImplementedError as e:
    print("NotImplementedError:", e)
