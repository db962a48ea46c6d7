# a.logical_and(x) with x not a tensor: PyTorch's TypeError names 'other' at position 1 (the method form);
# a dtype there once became an object array (fuzz finding)
a = torch.ones(4, 2, 2)
print(torch.logical_xor(a, a).shape)
z = a.logical_and(torch.int8)
