# source: https://www.apxml.com/courses/getting-started-with-pytorch/chapter-3-automatic-differentiation-autograd/gradient-accumulation (the example)
import torch
# Create a tensor that requires gradients
x = torch.tensor([2.0], requires_grad=True)
# Perform some operations
y = x * x
z = y * 3 # z = 3 * x^2
# First backward pass
# dz/dx = 6*x = 6*2 = 12
z.backward(retain_graph=True) # retain_graph=True allows subsequent backward calls
print(f"After first backward pass, x.grad: {x.grad}")
# Perform another operation (can be the same or different)
# For simplicity, let's use the same z again for demonstration
# Note: In a real scenario, you'd likely compute a new loss
# based on a new input or different part of the model.
z.backward() # Second backward pass
# We expect the new gradient (12) to be added to the existing one (12)
print(f"After second backward pass, x.grad: {x.grad}")
# Manually zero the gradient
x.grad.zero_()
print(f"After zeroing, x.grad: {x.grad}")
