# composite losses' argument checks, caught with PyTorch's messages
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
try:
    F.margin_ranking_loss(x, x, torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    F.cosine_embedding_loss(x, x, torch.ones(3, 1))
except RuntimeError as e:
    print(e)
try:
    F.cosine_embedding_loss(x[0], x[0], torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    F.triplet_margin_loss(x, x, x[0])
except RuntimeError as e:
    print(e)
try:
    nn.TripletMarginLoss(margin=0.0)
except ValueError as e:
    print(e)
try:
    F.gaussian_nll_loss(x, x, torch.ones(2))
except ValueError as e:
    print(e)
try:
    F.gaussian_nll_loss(x, x, -torch.ones(3, 5))
except ValueError as e:
    print(e)
try:
    F.triplet_margin_with_distance_loss(x, x, x, reduction="avg")
except ValueError as e:
    print(e)
try:
    F.cosine_similarity(torch.tensor([1, 2]), torch.tensor([3, 4]), dim=0)
except RuntimeError as e:
    print(e)
loss = F.margin_ranking_loss(x, x.detach(), torch.ones(3, 5))
