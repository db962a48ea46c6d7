# source: https://github.com/pytorch/pytorch/issues/2512 (detach_() variant that affects all past uses too: Jiaming-Liu's comment "detach also seems weird", verbatim; under PyTorch 2.13 the backward runs and W gets no gradient)
import torch
x = torch.randn(1,2)
x = torch.autograd.Variable(x)

W = torch.randn(2,3)
W = torch.autograd.Variable(W,requires_grad=True)
W2 = torch.randn(3,4)
W2 = torch.autograd.Variable(W2,requires_grad=True)

xW = torch.mm(x,W)
xW_detach = xW.detach()
xW_detach.requires_grad = True
xWW2 = torch.mm(xW_detach,W2)

loss = torch.sum(torch.pow(xWW2,2).view(-1),0)

loss.backward(retain_graph=False)
