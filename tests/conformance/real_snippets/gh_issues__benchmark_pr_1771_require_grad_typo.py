# source: https://github.com/pytorch/benchmark/pull/1771 (Fix require_grad typo: the two lines of BERT_pytorch's PositionalEmbedding.__init__ the review thread quotes, with the import they assume and values for the constructor's max_len and d_model)
import torch
max_len, d_model = 8, 4
# Compute the positional encodings once in log space.
pe = torch.zeros(max_len, d_model).float()
pe.require_grad = False
