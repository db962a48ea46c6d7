# source: https://runebook.dev/en/docs/pytorch/generated/torch.autograd.function.inplacefunction/torch.autograd.function.InplaceFunction.backward (the out-of-place example)
import torch

# This is a leaf variable
x = torch.tensor([1.0, 2.0], requires_grad=True)

#  The Problem: In-place operation
# x.add_(1)
# print(x) # This would cause the RuntimeError on the backward pass

#  The Solution: Out-of-place operation
y = x + 1 
z = torch.sum(y)

# Now the backward pass works perfectly fine
z.backward()

print(f"Original leaf tensor 'x' is {x}")
print(f"Gradient of 'x' is {x.grad}")
