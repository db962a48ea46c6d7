# source: https://blog.csdn.net/FY_2018/article/details/119918294 (blog on nn.Dropout in train()/eval(): its example, verbatim)
#-*- coding:utf-8 -*-
#Author LJB Create on 2021/8/25
import torch.nn as nn
import torch
class Test(nn.Module):
    def __init__(self):
        super(Test,self).__init__()
        self.droprate=0.8
        self.dropout = nn.Dropout(self.droprate)

    def forward(self,x):
        o = self.dropout(x)
        print('++before dropout:',x/(1-self.droprate))
        print('---after dropout:',o)

T = Test()

data = torch.Tensor([1,2,3,4,5,6,7,8,9,10])
T.train()
for i in range(5):
    T(data)

print('#'*40)
T.eval()
for i in range(5):
    T(data)
