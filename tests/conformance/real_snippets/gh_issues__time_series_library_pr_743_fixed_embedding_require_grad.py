# source: https://github.com/thuml/Time-Series-Library/pull/743 ("Use .requires_grad instead of .require_grad in embedding module": layers/Embed.py line 50, the first two lines of FixedEmbedding.__init__, with the import they assume and values for its c_in and d_model)
import torch
c_in, d_model = 6, 4
w = torch.zeros(c_in, d_model).float()
w.require_grad = False
