# Embedding's bad arguments: padding_idx out of range (AssertionError), float indices, 1-d weight,
# an index out of range (IndexError, at the call line)
import torch.nn as nn
try:
    nn.Embedding(3, 2, padding_idx=3)
except AssertionError as e:
    print("AssertionError:", e)
emb = nn.Embedding(3, 2)
try:
    emb(torch.tensor([0.0, 1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.embedding(torch.tensor([0]), torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
y = emb(torch.tensor([[0, 3]]))
