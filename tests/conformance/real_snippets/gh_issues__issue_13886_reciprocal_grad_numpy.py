# source: https://github.com/pytorch/pytorch/issues/13886 (issue's code; the imports and `dtype` it assumes added, np.random.seed(0) added so the run is repeatable)
import numpy as np
import torch
dtype = torch.float
np.random.seed(0)
a = torch.tensor(np.random.randn(), dtype=dtype, requires_grad=True)
loss = 1/a
loss.backward()
print(a.grad - (-1/(a**2)))
