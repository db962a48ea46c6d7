# torch.set_default_dtype takes a floating dtype object only: a name, None or an int dtype is PyTorch's TypeError
import torch
for d in ['', 'float32', None, torch.int32, torch.bool]:
    try:
        torch.set_default_dtype(d)
    except TypeError as e:
        print(e)
torch.set_default_dtype(torch.float64)
x = torch.tensor([1.5, 2.0], requires_grad=True)
print(x.dtype, torch.get_default_dtype())
