# MSELoss with a target of another size broadcasts, with PyTorch's warning at the call line
import torch.nn as nn
x = torch.ones(3, 1, requires_grad=True)
t = torch.tensor([1.0, 2.0, 4.0])
loss_fn = nn.MSELoss()
loss = loss_fn(x, t)
print(loss)
loss.backward()
