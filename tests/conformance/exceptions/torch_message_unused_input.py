# str(e) of unused_input is PyTorch's: it names the index of the unused input
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0], requires_grad=True)
y = (x * 2).sum()
try:
    torch.autograd.grad(y, [x, w], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(y, w, retain_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(y, [w, x, w])
except RuntimeError as e:
    print("RuntimeError:", e)
