# batch_norm's second derivative in evaluation mode (running statistics) and with the weight's gradient in the graph
import torch.nn as nn
torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
bn.running_mean.fill_(0.5)
bn.running_var.fill_(2.0)
bn.eval()
x = torch.randn(5, 3, requires_grad=True)
y = bn(x)
gx, gw, gb = torch.autograd.grad((y * y * y).sum(), [x, bn.weight, bn.bias], create_graph=True)
(gx.sum() + (gw * gb).sum()).backward()
print(x.grad, bn.weight.grad, bn.bias.grad)
