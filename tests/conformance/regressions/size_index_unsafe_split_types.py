# torch.Size indexed by a float/str/out of range: the tuple's errors; unsafe_split's split_size must be an int (a one-element int tensor is taken)
import torch
x = torch.zeros(2, 3)
try:
    print(x.shape[5])
except IndexError as e:
    print(e)
try:
    print(x.shape[1.5])
except TypeError as e:
    print(e)
try:
    print(x.shape["a"])
except TypeError as e:
    print(e)
for s in [(0,), 1.5, "a", None, -1, torch.tensor(2)]:
    try:
        print(torch.tensor([1, 2, 3]).unsafe_split(s))
    except TypeError as e:
        print("TypeError", e)
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.tensor([1, 2, 3]).unsafe_split(2, 0))
print(torch.unsafe_split(torch.tensor([1, 2, 3]), 2, 0.5))
