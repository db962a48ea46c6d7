# F.embedding and nn.Embedding options: negative padding_idx, scale_grad_by_freq, max_norm renorm in place,
# from_pretrained (frozen / not), int32 indices, a 0-d index
import torch.nn as nn
torch.manual_seed(2)
w = torch.randn(5, 4, requires_grad=True)
i = torch.tensor([4, 0, 4, 4, 2], dtype=torch.int32)
a = F.embedding(i, w, padding_idx=-1, scale_grad_by_freq=True)
b = F.embedding(torch.tensor(3), w)
print(a, b)
e2 = nn.Embedding(4, 3, max_norm=1.0, scale_grad_by_freq=True, norm_type=1.0)
print(e2, e2.weight._version)
r = e2(torch.tensor([0, 2, 2]))
print(e2.weight, e2.weight._version)
print(r)
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre, pre.weight.requires_grad, pre(torch.tensor([1, 1, 0])))
tr = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), freeze=False, padding_idx=0)
print(tr.weight.requires_grad, tr)
s = a.sum() * 2 + b.sum() + r.pow(2).sum()
