# TripletMarginWithDistanceLoss: the default PairwiseDistance submodule, a custom distance, swap, reductions
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
an = torch.randn(4, 3, requires_grad=True)
po = torch.randn(4, 3, requires_grad=True)
ne = torch.randn(4, 3, requires_grad=True)
loss_fn = nn.TripletMarginWithDistanceLoss()
print(loss_fn)
a = loss_fn(an, po, ne)
def l_inf(x, y):
    return torch.max(torch.abs(x - y), dim=1).values
b = nn.TripletMarginWithDistanceLoss(distance_function=l_inf, margin=1.5, swap=True, reduction="sum")(an, po, ne)
c = F.triplet_margin_with_distance_loss(an, po, ne, distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y),
                                        reduction="none")
print(a, b, c)
(a + b + c.sum()).backward()
