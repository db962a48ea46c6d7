# nn.ParameterList: the docs' MyModule (parameters registered as params.0 ..., a plain tensor appended becomes a Parameter), printing, slicing, a non-tensor element, PyTorch's errors (called, extend of a tensor, index out of range)
import torch
import torch.nn as nn
torch.manual_seed(0)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.randn(2, 2)) for i in range(3)])
        self.params.append(torch.ones(2, 2))
    def forward(self, x):
        for i, p in enumerate(self.params):
            x = self.params[i // 2].mm(x) + p.mm(x)
        return x
m = M()
print(m)
print(len(m.params), type(m.params[3]) is nn.Parameter, [n for n, _ in m.named_parameters()])
y = m(torch.ones(2, 1))
y.sum().backward()
print(m.params[0].grad, m.params[-1].grad)
pl = nn.ParameterList()
print(pl, len(pl))
pl.extend([torch.zeros(3), 5])
print(pl, pl[0:1])
try:
    pl(1)
except RuntimeError as e:
    print(e)
try:
    pl.extend(torch.ones(2))
except TypeError as e:
    print(e)
try:
    pl[7]
except IndexError as e:
    print(e)
