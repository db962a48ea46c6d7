# BatchNorm's bad arguments: one value per channel in training, wrong rank (ValueError), wrong number of
# features, eval without running statistics
import torch.nn as nn
bn = nn.BatchNorm1d(3)
try:
    bn(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    bn(torch.randn(2, 3, 4, 5))
except ValueError as e:
    print("ValueError:", e)
try:
    F.batch_norm(torch.ones(2, 3), None, None)
except RuntimeError as e:
    print("RuntimeError:", e)
y = bn(torch.randn(4, 5))
