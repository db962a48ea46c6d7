# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Embedding.html (docstring in pytorch/pytorch torch/nn/modules/sparse.py; REPL -> script with the imports the page assumes, displayed values -> print)
import torch
import torch.nn as nn

# an Embedding module containing 10 tensors of size 3
embedding = nn.Embedding(10, 3)
# a batch of 2 samples of 4 indices each
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(embedding(input))

# example with padding_idx
embedding = nn.Embedding(10, 3, padding_idx=0)
input = torch.LongTensor([[0, 2, 0, 5]])
print(embedding(input))

# example of changing `pad` vector
padding_idx = 0
embedding = nn.Embedding(3, 3, padding_idx=padding_idx)
print(embedding.weight)
with torch.no_grad():
    embedding.weight[padding_idx] = torch.ones(3)
print(embedding.weight)
