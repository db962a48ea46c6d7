# str(e) of requires_grad_dtype: PyTorch words it differently for requires_grad_(), the requires_grad= argument and
# the attribute
i = torch.tensor([1, 2])
try:
    i.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i.requires_grad = True
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2, dtype=torch.int64, requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(3, requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
