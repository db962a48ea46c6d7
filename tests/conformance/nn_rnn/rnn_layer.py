# nn.RNN: parameters weight_ih_l0 ..., two layers, batch_first, h_0 given; StackBackward0 / TransposeBackward1
import torch.nn as nn
torch.manual_seed(1)
rnn = nn.RNN(3, 4, num_layers=2, batch_first=True)
print(rnn, [n for n, p in rnn.named_parameters()])
x = torch.randn(2, 5, 3, requires_grad=True)
h0 = torch.randn(2, 2, 4)
out, hn = rnn(x, h0)
print(out.shape, hn.shape, out.grad_fn, hn.grad_fn)
print(out[:, -1], hn[-1])
loss = out.pow(2).sum() + hn.sum()
loss.backward()
print(x.grad[0], rnn.weight_hh_l1.grad)
