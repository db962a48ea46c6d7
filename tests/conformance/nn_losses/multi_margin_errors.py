# MultiMarginLoss / MultiLabelMarginLoss argument checks, and their backward has no derivative
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
try:
    nn.MultiMarginLoss(p=3)
except ValueError as e:
    print(e)
try:
    F.multi_margin_loss(x, torch.tensor([0, 1]))
except RuntimeError as e:
    print(e)
try:
    F.multi_margin_loss(x, torch.tensor([0, 1, 4]))
except RuntimeError as e:
    print(e)
try:
    F.multilabel_margin_loss(x, torch.tensor([0, 1, 2]))
except RuntimeError as e:
    print(e)
try:
    F.multilabel_margin_loss(x, torch.tensor([[0, 1, 2, 5]] * 3))
except RuntimeError as e:
    print(e)
loss = F.multi_margin_loss(x, torch.tensor([0, 1, 3]))
g, = torch.autograd.grad(loss, x, create_graph=True)
print(g.requires_grad, g.grad_fn.name())
gg = torch.autograd.grad(g.sum(), x)
