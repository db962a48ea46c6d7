# source: https://devgem.io/posts/understanding-pytorch-s-retain-graph-true-error (Case 1: Error Case), two backward calls through a shared z
import torch
 
x = torch.tensor([2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
f = x + y
z = 2 * f
y1 = z ** 2
y2 = z ** 3
y1.backward()
y2.backward()
