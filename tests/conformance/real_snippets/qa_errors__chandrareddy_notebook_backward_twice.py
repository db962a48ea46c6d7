# source: https://github.com/chandrareddytiyyagura/pytorch-basics (notebook: first cells, a second backward; unused "import numpy as np" removed, notebook display -> print)
import torch

x = torch.tensor(5.0, requires_grad=True)
print(x)

y = x ** 3

print(y)

y.backward()

print(x.grad)

y.backward()
print(x.grad)
