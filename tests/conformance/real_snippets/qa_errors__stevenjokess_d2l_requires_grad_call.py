# source: https://github.com/StevenJokess/d2l-en-read (notebook on autograd and Variable, cells In[1]-In[5] in order; the notebook stops at In[3]'s error as a script would)
import torch
from torch.autograd import Variable
x = torch.arange(4.0, requires_grad=True)
# make it as a Variable with a gradient taken.
# .requires_grad_( ... ) changes an existing Tensor’s requires_grad flag in-place.
# instead of x =  torch.autograd.Variable(x, requires_grad=True)
x.requires_grad()
y = x * x
y.backward(torch.ones(y.size()))
u = x.detach()
u = torch.autograd.Variable(u, requires_grad=True)
v = u * u
v.backward(torch.ones(v.size()))
print(x.grad == u.grad)
