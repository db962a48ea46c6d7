# str(e) of non_scalar_backward is PyTorch's text, for backward() and autograd.grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    (x * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(x * x, x)
except RuntimeError as e:
    print("RuntimeError:", e)
