# source: https://www.codegenes.net/blog/custom-parameter-not-updating-pytorch (the first example: a Linear layer's weight with requires_grad = False, its grad after backward)
import torch
import torch.nn as nn
# Create a simple linear layer
linear_layer = nn.Linear(10, 10)
# Select a parameter (e.g., weight) and set requires_grad to False
linear_layer.weight.requires_grad = False
# Now, when we calculate gradients, no gradients will be computed for this parameter
input_tensor = torch.randn(1, 10)
output = linear_layer(input_tensor)
loss = output.sum()
loss.backward()
# Check the gradient of the weight
print(linear_layer.weight.grad) # This will be None
