# nn.BatchNorm1d: batch statistics in training (running stats updated, num_batches_tracked), running
# statistics in eval; NativeBatchNormBackward0; state_dict keys and buffers
import torch.nn as nn
torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
print(bn, list(bn.state_dict().keys()))
x = torch.randn(6, 3, requires_grad=True) * 2 + 1
y = bn(x)
print(y)
print(y.grad_fn, y.grad_fn.next_functions)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.running_mean._version)
y2 = bn(torch.randn(6, 3))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
e = bn(x)
print(e)
loss = (y * torch.arange(18.0).reshape(6, 3)).sum() + e.pow(2).sum()
loss.backward()
print(bn.weight.grad, bn.bias.grad)
