"""torch.nn.Dropout, Dropout1d, Dropout2d (``torch/nn/modules/dropout.py``): ``p`` checked at construction
(PyTorch's ValueError), ``forward`` the functional form with ``self.training`` (gradcli.ops.dropout: the
mask PyTorch draws after ``torch.manual_seed``, the input itself in eval mode), ``print`` as
``extra_repr``: ``Dropout(p=0.5, inplace=False)``."""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import dropout as _D
from ..errors import ArgumentTypeError
from ._errors import nn_error
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d"]

_MOD = "torch.nn.modules.dropout"


def _compare_fails(p: Any) -> bool:
    """Whether ``p < 0`` is Python's TypeError (PyTorch's __init__ runs that comparison)."""
    return not isinstance(p, (int, float)) and not isinstance(p, Tensor)


class _DropoutNd(Module):
    _fn: Any = None

    @python_errors
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if _compare_fails(p):
            raise ArgumentTypeError(f"'<' not supported between instances of '{type(p).__name__}' and 'int'")
        if p < 0 or p > 1:
            raise nn_error(ValueError, f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        return type(self)._fn(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes each element with probability p in training mode, scaling the rest by 1/(1-p) (F.dropout)."""

    __module__ = _MOD
    _fn = staticmethod(_D.dropout)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of (N, C, L) / (C, L) inputs in training mode (F.dropout1d)."""

    __module__ = _MOD
    _fn = staticmethod(_D.dropout1d)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of (N, C, H, W) inputs in training mode (F.dropout2d)."""

    __module__ = _MOD
    _fn = staticmethod(_D.dropout2d)
