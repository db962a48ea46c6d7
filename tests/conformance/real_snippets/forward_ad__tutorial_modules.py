# source: https://github.com/pytorch/tutorials/blob/main/intermediate_source/forward_ad_usage.py (Usage with Modules section, with the imports of the page)
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn

model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))

    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
