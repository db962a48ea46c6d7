# gradcli: --repeat 0
# str(e) of detach_view is PyTorch's whole text
x = torch.ones(3, requires_grad=True)
y = x * 2
v = y[1:]
try:
    v.detach_()
except RuntimeError as e:
    print("RuntimeError:", e)
