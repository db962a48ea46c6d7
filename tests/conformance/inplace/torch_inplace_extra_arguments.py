# torch.sin_(x, 1) / torch.relu_(x, foo=2): the in-place torch functions take only input, PyTorch's parser TypeError (caught, then uncaught)
x = torch.ones(2)
try:
    torch.sin_(x, 1)
except TypeError as e:
    print(e)
torch.relu_(x, foo=2)
