# MultiLabelSoftMarginLoss: per-class logistic loss averaged over classes, weight, reductions
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
y = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]])
a = nn.MultiLabelSoftMarginLoss()(x, y)
b = nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0]), reduction="sum")(x, y)
c = F.multilabel_soft_margin_loss(x, y, reduction="none")
print(a, b, c)
(a + b + c.sum()).backward()
