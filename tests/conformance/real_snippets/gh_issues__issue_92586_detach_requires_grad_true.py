# source: https://github.com/pytorch/pytorch/issues/92586 (Setting the output.requires_grad to True makes backward succeed: the second snippet, verbatim; t gets no gradient)
import torch
t = torch.randn(5, requires_grad=True)

def func(t):
    t_copy = t.detach()
    t_copy.requires_grad = True
    return t_copy

func(t).sum().backward()
