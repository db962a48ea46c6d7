# source: https://github.com/pytorch/pytorch/issues/156212 (torch.where() can produce nan values for unselected branch during backward: the first snippet, with the import it assumes)
import torch

# some arbitrary max value for sth similar to torch.clamp(x, max=x_th)
x_th=torch.tensor(10)

# nan value, just for this experiment
x = torch.tensor([1.0, float('nan'), 1e10], requires_grad=True)

# some arbitrary secondary path, for showcase
b = torch.tensor(1)

# this never selects nan and protects against overflows
x_out = torch.where(x <= x_th, torch.exp(x), b)

print(x_out)

l = x_out.sum()
l.backward()

print(x.grad)
