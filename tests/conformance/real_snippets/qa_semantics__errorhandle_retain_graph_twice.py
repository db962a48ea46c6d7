# source: https://errorhandle.ai/usage-of-retain-graph-in-pytorch (the answer's example, verbatim)
import torch

# Example tensors
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y.sum()

# Perform backward pass
z.backward(retain_graph=True)

# Perform another backward pass
z.backward()  # This would fail without retain_graph=True in the first backward pass

# Print gradients
print(x.grad)
