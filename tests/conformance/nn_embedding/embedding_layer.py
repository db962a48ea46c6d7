# nn.Embedding: default init (normal_), padding_idx row zero and without gradient, EmbeddingBackward0
import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(6, 3, padding_idx=1)
print(emb)
print(emb.weight)
idx = torch.tensor([[0, 1, 2, 2], [5, 1, 0, 3]])
out = emb(idx)
print(out.shape, out.grad_fn, out.grad_fn.next_functions)
loss = (out * torch.arange(3.0)).sum()
loss.backward()
print(emb.weight.grad)
