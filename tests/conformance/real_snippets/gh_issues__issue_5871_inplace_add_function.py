# source: https://github.com/pytorch/pytorch/issues/5871 (Error in Function backward when forward output is in-place of forward input and input is not leaf; both runs of the issue in order)
import torch
from torch.autograd import Variable, Function

class InPlaceAdd(Function):
    @staticmethod
    def forward(ctx, a, b):
        a[1:2] += b
        return a
    
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output[1:2].resize(1)

add_in_place = InPlaceAdd.apply

a = Variable(torch.ones(2), requires_grad=True)
b = Variable(torch.ones(1), requires_grad=True)

c = add_in_place(a + 1, b)

c.sum().backward()

print(a.grad, b.grad)

a = Variable(torch.ones(2), requires_grad=True)
b = Variable(torch.ones(1), requires_grad=True)

c = add_in_place(a, b)

c.sum().backward()

print(a.grad, b.grad)
