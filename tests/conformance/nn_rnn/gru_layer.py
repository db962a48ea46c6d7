# nn.GRU bidirectional, unbatched input, relu RNN without bias; gradients through both directions
import torch.nn as nn
torch.manual_seed(2)
gru = nn.GRU(2, 3, bidirectional=True)
print(gru, [n for n, p in gru.named_parameters()][-4:])
x = torch.randn(4, 2, requires_grad=True)
out, hn = gru(x)
print(out, hn, out.grad_fn)
r = nn.RNN(2, 3, nonlinearity='relu', bias=False)
o2, h2 = r(torch.randn(3, 1, 2))
print(r, o2.grad_fn, h2)
loss = out.sum() + hn.pow(2).sum() + o2.sum()
loss.backward()
print(x.grad, gru.bias_hh_l0_reverse.grad)
