# source: https://github.com/lhycms/Deep_Learning_Notes (notebook on leaf variables and in-place ops, cells In[2]-In[14] in order; the failing cell In[7] wrapped in try/except printing the error so the later cells run as they do in the notebook)
import torch
# For example

# leaf variable
w = torch.tensor([1.0, 2.0, 3.0])

# also leaf variable
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) 

# not a leaf variable
y = x + 1
print(w.is_leaf, x.is_leaf, y.is_leaf)
try:
    x += 1  # in-place
    y = x + 1 # not in place
except RuntimeError as e:
    print(e)
x2 = x.clone()  # clone the variable
x2 += 1  # in-place operation
print(x2)
with torch.no_grad():
    x += 1
    print(x)
    print(x.requires_grad)
print(x)
print(x.requires_grad)
