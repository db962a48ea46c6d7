# max_pool2d with return_indices: the first maximum of each window wins a tie; padding, ceil_mode; the gradient goes to each maximum (accumulating where windows overlap)
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([[[[1.0, 3.0, 3.0, 0.0, 2.0], [4.0, 4.0, 1.0, 1.0, 0.0], [0.0, 2.0, 5.0, 5.0, 1.0],
                    [1.0, 1.0, 1.0, 0.0, 7.0]]]], requires_grad=True)
pool = nn.MaxPool2d(2, return_indices=True)
print(pool)
v, i = pool(x)
print(v, i, v.grad_fn)
w, j = F.max_pool2d(x, 3, stride=1, padding=1, return_indices=True)
print(w, j)
c = F.max_pool2d(x, (2, 3), stride=2, ceil_mode=True)
print(c, nn.MaxPool2d((2, 3), stride=2, ceil_mode=True, dilation=1))
(v.sum() + w.sum() + 10 * c.sum()).backward()
print(x.grad)
