# A module's helpers and state named with a leading underscore (real modules do: `self._layer2_fn`
# passed to checkpoint): methods, class attributes, assigned attributes, a registered buffer and a
# submodule under `_` names; printing and parameter names keep them as PyTorch does.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    _scale = 2.0

    def __init__(self):
        super().__init__()
        self._fc = nn.Linear(3, 2)
        self._count = 0
        self.register_buffer("_mask", torch.tensor([1.0, 0.5]))

    def _helper(self, h):
        self._count += 1
        return self._fc(h) * self._mask * self._scale

    def forward(self, x):
        return checkpoint(self._helper, x, use_reentrant=False)


class Meter:
    def __init__(self):
        self._total = 0.0

    def _add(self, v):
        self._total = self._total + v
        return self


torch.manual_seed(0)
m = Block()
x = torch.randn(4, 3, requires_grad=True)
out = m(x)
out.sum().backward()
print(m._count, Block._scale, m._mask)
print(m)
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
meter = Meter()._add(out.sum().item())._add(1.0)
print(round(meter._total, 4))
w = m._fc.weight
