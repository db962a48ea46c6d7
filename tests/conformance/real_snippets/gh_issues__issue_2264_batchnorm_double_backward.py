# source: https://github.com/pytorch/pytorch/issues/2264 (Segfault when double backward on BatchNorm2d: the code; the use_cuda lines and the .cuda() calls dropped, the excerpt's cut-off last line "loss.ba" completed as loss.backward())
import torch
import torch.nn as nn
import torch.nn.functional as F

from torch.autograd import Variable


class BatchNormTest(nn.Module):
    def __init__(self, num_classes=2):
        super(BatchNormTest, self).__init__()
        self.bn = nn.BatchNorm2d(3)
        self.linear = nn.Linear(3*4*4, num_classes)

    def forward(self, x):
        out = x
        # the following line leads to SEGFAULT
        # no SEGFAULT when commented out
        out = self.bn(out)
        out = out.view(out.size(0), -1)
        out = self.linear(out)
        return out

b = 4
net = BatchNormTest()
inputs = Variable(torch.rand(b,3,4,4), requires_grad=True)

output = net(inputs)
# this line leads to SEGFAULT
loss1 = torch.sum(torch.exp(output))
## whereas this line does not
# loss1 = torch.sum(output)
grad_params = torch.autograd.grad(loss1, inputs, create_graph=True)

grad = grad_params[0]
loss = torch.sum(grad)

loss.backward()
