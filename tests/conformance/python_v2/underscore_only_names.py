# names made of underscores only (a throwaway loop variable, a parameter, an except target) are plain names
import torch
for __ in range(2):
    print(__)
___ = torch.ones(2)
print(___ * 2)
def f(__):
    return __ + 1
print(f(3))
try:
    1 / 0
except ZeroDivisionError as __:
    print(__)
