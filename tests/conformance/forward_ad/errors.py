# forward_ad's errors, with PyTorch's classes and messages
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([1., 2., 3.])
try:
    fwAD.make_dual(primal, torch.ones(3))
except RuntimeError as e:
    print("no level:", e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(primal, torch.ones(2))
    except RuntimeError as e:
        print("size:", e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print("nested:", e)
    try:
        fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1., 2.]))
    except ValueError as e:
        print("int primal:", e)
    try:
        fwAD.make_dual(primal, torch.tensor([1, 2, 3]))
    except ValueError as e:
        print("int tangent:", e)
    d = fwAD.make_dual(primal, torch.ones(3))
    try:
        fwAD.make_dual(d, torch.ones(3))
    except RuntimeError as e:
        print("dual twice:", e)
    try:
        fwAD.exit_dual_level(level=3)
    except RuntimeError as e:
        print("exit:", e)
    print(d)
try:
    fwAD.exit_dual_level()
except RuntimeError as e:
    print("exit outside:", e)
level = fwAD.enter_dual_level()
print(level)
x = fwAD.make_dual(torch.tensor([2.]), torch.tensor([1.]))
print(x * x)
fwAD.exit_dual_level()
print(x * x)
