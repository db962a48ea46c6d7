"""torch.nn.Bilinear (``torch/nn/modules/linear.py``; a module of its own here, beside i17a's Linear):
``weight = Parameter(torch.empty((out, in1, in2)))``, ``bias`` (out,) or None, both
``uniform_(-1/sqrt(in1), 1/sqrt(in1))`` (PyTorch's draws after ``torch.manual_seed``; ValueError for
``in1_features <= 0``); ``forward`` is ``F.bilinear`` (gradcli.ops.bilinear, TrilinearBackward0)."""

from __future__ import annotations

import math
from typing import Any

from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import creation
from ..ops.bilinear import bilinear
from . import init
from ._errors import nn_error
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["Bilinear"]


class Bilinear(Module):
    """``y = x1^T A x2 + b`` over the last dims: (*, in1), (*, in2) -> (*, out)."""

    __module__ = "torch.nn.modules.linear"

    @python_errors
    @tracked_after_init
    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        factory = {} if dtype is None else {"dtype": dtype}
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(creation.empty((out_features, in1_features, in2_features), **factory))
        if bias:
            self.bias = Parameter(creation.empty(out_features, **factory))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight and bias ``uniform_(-1/sqrt(in1_features), 1/sqrt(in1_features))``."""
        if self.in1_features <= 0:
            raise nn_error(ValueError, f"in1_features must be > 0, but got (in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    @python_errors
    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
