# source: https://github.com/zh217/torch-dct/issues/10 ("require_grad or requires_grad", maintainer: "it is a typo": torch_dct/_dct.py L202, LinearDCT.reset_parameters; LinearDCT is an nn.Linear, written here as one at top level, and dct(I) is replaced by I since torch.rfft, which torch_dct.dct calls, is gone from PyTorch 2.x)
import torch
import torch.nn as nn
N = 4
layer = nn.Linear(N, N, bias=False)
I = torch.eye(N)
layer.weight.data = I.t()
layer.weight.require_grad = False  # don't learn this!
