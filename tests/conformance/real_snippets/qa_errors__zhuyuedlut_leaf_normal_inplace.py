# source: https://github.com/zhuyuedlut/AIGC (notebook on in-place operations, cells In[1]-In[5] as a script; it stops at In[5]'s error as the notebook's cell does)
import sys
import torch
from torch import nn
w = torch.FloatTensor(10)
w.requires_grad = True
w
w.is_leaf
w.normal_()
