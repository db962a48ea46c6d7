# source: https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308/2 (the answer's two workarounds: clone then in-place, and in-place under no_grad; the failing x += 1 line left out)
import torch
w = torch.tensor([1.0, 2.0, 3.0]) # leaf variable
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) # also leaf variable
y = x + 1 # not a leaf variable
x2 = x.clone() # clone the variable
x2 += 1 # in-place operation
print(x2)
with torch.no_grad():
    x += 1
print(x, x.is_leaf, x.requires_grad)
