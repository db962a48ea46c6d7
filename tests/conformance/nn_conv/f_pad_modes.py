# F.pad constant (also negative widths that crop), reflect and replicate: shapes, values, grad_fn names, gradients
import torch.nn.functional as F
x = torch.arange(12.0).reshape(1, 3, 4).requires_grad_()
a = F.pad(x, (1, 2), value=-1.0)
b = F.pad(x, (-1, 1, 1, 0))
c = F.pad(x, (2, 1), mode="reflect")
d = F.pad(x, (1, 1, 2, 0), mode="replicate")
for t in (a, b, c, d):
    print(t, t.grad_fn)
(a.sum() + b.sum() + (c * c).sum() + d.sum()).backward()
print(x.grad)
