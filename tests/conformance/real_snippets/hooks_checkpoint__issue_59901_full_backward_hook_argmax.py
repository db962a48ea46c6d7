# source: https://github.com/Zenasj/HBTGen-artifact/blob/HEAD/data/pytorch-issue/issue_59901.py (the reproducer of https://github.com/pytorch/pytorch/issues/59901, its second program, verbatim)
import torch


class ArgMax(torch.nn.Module):
    def forward(self, x):
        return torch.argmax(x)


x = torch.rand((2, 3), requires_grad=True)

m = ArgMax()
m.register_full_backward_hook(lambda m, x, y: print('In backward hook', x, y))

t = m(x)
t.backward()
