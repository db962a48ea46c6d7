# MultiMarginLoss (p, margin, weight, reductions) and MultiLabelMarginLoss (targets up to -1): values, gradients
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
y = torch.tensor([0, 3, 4, 1])
a = nn.MultiMarginLoss()(x, y)
b = nn.MultiMarginLoss(p=2, margin=0.7, weight=torch.tensor([1.0, 0.5, 2.0, 1.0, 0.25]), reduction="sum")(x, y)
c = F.multi_margin_loss(x, y, reduction="none")
v = torch.randn(5, requires_grad=True)
d = F.multi_margin_loss(v, torch.tensor([2]), reduction="none")
e = F.multi_margin_loss(v, torch.tensor(2))
t = torch.tensor([[3, 0, -1, 1, 2], [1, -1, 0, 0, 0], [0, 1, 2, 3, 4], [4, 2, 2, -1, 3]])
f = nn.MultiLabelMarginLoss()(x, t)
g = F.multilabel_margin_loss(x, t, reduction="none")
h = F.multilabel_margin_loss(v, torch.tensor([1, 4, -1, 0, 0]), reduction="sum")
print(a, b, c, d, e)
print(f, g, h)
(a + b + c.sum() + d.sum() + e + f + g.sum() + h).backward()
