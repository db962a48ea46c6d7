# Fuzz find (#20): the value of an advanced-index assignment that cannot broadcast to the indexing result;
# PyTorch's message names the value's shape after its leading 1-dims are dropped
x = torch.zeros(3, 3)
m = torch.ones(3, 3, dtype=torch.bool)
try:
    x[m] = torch.ones(9, 1)
except RuntimeError as e:
    print(e)
try:
    x[m & False] = torch.ones(1, 2, 3)
except RuntimeError as e:
    print(e)
print(x._version)
y = torch.zeros(3, 2)
y[:, [0, 1]] = torch.ones(1, 1, 3)
