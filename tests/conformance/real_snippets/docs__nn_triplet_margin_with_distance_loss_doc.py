# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.TripletMarginWithDistanceLoss.html (docstring in pytorch/pytorch torch/nn/modules/loss.py; REPL -> script with the imports the page assumes; the docstring itself marks the second backward "FIXME: Would call backwards a second time")
import torch
import torch.nn as nn
import torch.nn.functional as F

# Initialize embeddings
embedding = nn.Embedding(1000, 128)
anchor_ids = torch.randint(0, 1000, (1,))
positive_ids = torch.randint(0, 1000, (1,))
negative_ids = torch.randint(0, 1000, (1,))
anchor = embedding(anchor_ids)
positive = embedding(positive_ids)
negative = embedding(negative_ids)

# Built-in Distance Function
triplet_loss = \
    nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance())
output = triplet_loss(anchor, positive, negative)
output.backward()

# Custom Distance Function
def l_infinity(x1, x2):
    return torch.max(torch.abs(x1 - x2), dim=1).values

triplet_loss = (
    nn.TripletMarginWithDistanceLoss(distance_function=l_infinity, margin=1.5))
output = triplet_loss(anchor, positive, negative)
output.backward()

# Custom Distance Function (Lambda)
triplet_loss = (
    nn.TripletMarginWithDistanceLoss(
        distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y)))
output = triplet_loss(anchor, positive, negative)
output.backward()
