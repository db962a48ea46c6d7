# BCELoss on probabilities and BCEWithLogitsLoss (weight, pos_weight) on logits
import torch.nn as nn
torch.manual_seed(0)
z = torch.randn(4, requires_grad=True)
t = torch.tensor([0.0, 1.0, 1.0, 0.0])
a = nn.BCELoss()(torch.sigmoid(z), t)
b = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(z, t)
c = nn.BCEWithLogitsLoss(weight=torch.tensor([1.0, 0.5, 1.0, 0.5]), reduction="sum")(z, t)
print(a, b, c)
(a + b + c).backward()
