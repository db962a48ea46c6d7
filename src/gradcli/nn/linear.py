"""torch.nn.Identity and torch.nn.Linear (``torch/nn/modules/linear.py``).

``Linear(in_features, out_features, bias=True, device=None, dtype=None)``: ``weight`` is
``Parameter(torch.empty((out_features, in_features)))`` and ``bias`` ``Parameter(torch.empty(out_features))``
(or None), initialised by ``reset_parameters`` exactly as PyTorch: ``kaiming_uniform_(weight, a=sqrt(5))``
then ``uniform_(bias, -1/sqrt(fan_in), 1/sqrt(fan_in))``, so after ``torch.manual_seed(n)`` the values are
PyTorch's.  ``forward`` is ``F.linear(input, weight, bias)`` (AddmmBackward0 for a 2-d input with bias,
MmBackward0 without, ViewBackward0 for 1-d and 3-d+ inputs, as PyTorch's).
"""

from __future__ import annotations

import math
from typing import Any

from ..autograd.tensor import Tensor
from ..ops import creation
from ..ops.linalg import linear
from . import init
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["Identity", "Linear"]


class Identity(Module):
    """``Identity(*args, **kwargs)``: forward returns its input (the arguments are ignored)."""

    __module__ = "torch.nn.modules.linear"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input


def _factory(dtype: Any) -> dict:
    return {} if dtype is None else {"dtype": dtype}


class Linear(Module):
    """``y = x @ weight.T + bias`` (torch.nn.Linear); shapes ``(*, in_features) -> (*, out_features)``."""

    __module__ = "torch.nn.modules.linear"

    @tracked_after_init
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(creation.empty((out_features, in_features), **_factory(dtype)))
        if bias:
            self.bias = Parameter(creation.empty(out_features, **_factory(dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default initialisation (see the module docstring)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
