# source: https://blog.csdn.net/denao/article/details/115647687 (blog on nn.ReLU's inplace argument: its second program, inplace=True, verbatim; the `import numpy as np` it assumes added)
import torch
import torch.nn as nn
import numpy as np


#inplace为True,将会改变输入的数据 ,否则不会改变原输入,只会产生新的输出
np.random.seed(1)
W=np.random.randn(7,3)
W=torch.Tensor(W)
W.requires_grad=True
m = nn.ReLU(inplace=True)

input = np.random.randn(1,7)
input= torch.Tensor(input)
mid=torch.mm(input,W)
output = m(mid)
loss=torch.sum(output)

loss.backward()

print("输入处理前图片:")
print(input)
print("ReLU输出:")
print(output)
print("输出的尺度:")
print(output.size())
print("输入处理后图片:")
print(input)

print("梯度求解:")
print(W.grad)

print("中间值:")
print(mid)
