# optimizer errors caught by PyTorch's classes: ValueError, TypeError, KeyError, with PyTorch's str(e)
w = torch.ones(2)
try:
    torch.optim.SGD([w], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.Adam([w, 3])
except TypeError as e:
    print("TypeError:", e)
try:
    torch.optim.SGD([{"lr": 1.0}])
except KeyError as e:
    print("KeyError:", e)
try:
    torch.optim.SGD([])
except RuntimeError:
    print("not a RuntimeError")
except ValueError as e:
    print("ValueError:", e)
opt = torch.optim.SGD([w], lr=0.1)
opt.param_groups[0]["params"].append(5)
try:
    opt.zero_grad()
except AttributeError as e:
    print("AttributeError:", e)
