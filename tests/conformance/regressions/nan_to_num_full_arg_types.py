# nan_to_num takes a 0-d tensor as a float value (a larger one is the parser TypeError); full(2, v) is the TypeError (a tuple of ints is needed)
import torch
x = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
for args in [(10, torch.tensor(-0.5), float("inf")), (torch.tensor(2.0),), (1.0, torch.tensor([3.0])), (True,), (1, 2, 3)]:
    try:
        print(x.nan_to_num(*args))
    except TypeError as e:
        print(e)
for s in [2, 2.0, [2], (2,), torch.Size([3])]:
    try:
        print(torch.full(s, 0.0))
    except TypeError as e:
        print(e)
