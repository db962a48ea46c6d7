# Fuzz find (#20): nn.Flatten()(None) was an internal error; PyTorch's forward calls input.flatten(...)
# and fails with Python's AttributeError
import torch.nn as nn

for bad in [None, 3, [1.0, 2.0]]:
    try:
        nn.Flatten()(bad)
    except AttributeError as e:
        print(e)
    try:
        nn.Unflatten(1, (2, 2))(bad)
    except AttributeError as e:
        print(e)
y = nn.Flatten(0)(None)
