# Dropout's bad arguments: p outside [0, 1] at construction and in F.dropout (ValueError), an integer input
import torch.nn as nn
ok = nn.Dropout(1)
print(ok)
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)
try:
    F.dropout(torch.ones(2), -0.1)
except ValueError as e:
    print("ValueError:", e)
try:
    F.dropout1d(torch.ones(2, 3, 4, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
y = F.dropout(torch.arange(4), 0.5)
