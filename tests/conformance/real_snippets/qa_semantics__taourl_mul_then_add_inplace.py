# source: https://taourl.com/read-2213901.html (blog on "one of the variables needed for gradient computation has been modified by an inplace operation"; markdown-mangled '*' and '()' restored). The blog says z.backward raises; mul by a Python number saves no tensor, so PyTorch does not
import torch
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
y.add_(1) # Inplace operation
z = y.sum()
z.backward() # Raises RuntimeError
print(x.grad)
