# gradcli: --repeat 0
# str(e) of leaf_inplace is PyTorch's, for a leaf and for a view of a leaf
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x += 1
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x[0] = 5.0
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.view(2).mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.zero_()
except RuntimeError as e:
    print("RuntimeError:", e)
