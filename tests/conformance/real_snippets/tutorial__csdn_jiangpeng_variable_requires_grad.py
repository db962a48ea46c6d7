# source: https://blog.csdn.net/jiangpeng59/article/details/80667335 (blog on requires_grad/volatile: the requires_grad example, its Out[] line printed; imports added)
import torch
from torch.autograd import Variable
x=Variable(torch.ones(1))
w=Variable(torch.ones(1),requires_grad=True)
y=x*w
print((x.requires_grad,w.requires_grad,y.requires_grad))
