# fill_ with a complex value: the real part when its imaginary part is 0, PyTorch's overflow error (naming the C++ type) otherwise
import torch
for d in [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]:
    try:
        print(torch.zeros(2, dtype=d).fill_(-1j))
    except RuntimeError as e:
        print(e)
print(torch.zeros(2, dtype=torch.int64).fill_(2 + 0j), torch.zeros(2).fill_(1.5 + 0j))
x = torch.ones(3, requires_grad=True)
y = (x * 2).fill_(3 + 0j)
