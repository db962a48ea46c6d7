"""torch.nn.MaxPool1d, MaxPool2d, AvgPool2d (``torch/nn/modules/pooling.py``): ``forward`` is the functional
form (gradcli.ops.pooling); ``stride`` defaults to ``kernel_size``; ``print(pool)`` is PyTorch's
``extra_repr`` (the arguments as given: ``kernel_size=2`` or ``kernel_size=(2, 3)``)."""

from __future__ import annotations

from typing import Any, Optional

from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import pooling as _P
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool2d"]

_MOD = "torch.nn.modules.pooling"


class _MaxPoolNd(Module):
    _fn: Any = None

    @python_errors
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    @python_errors
    def forward(self, input: Tensor) -> Any:
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """Max over windows of (N, C, L) or (C, L) inputs (F.max_pool1d)."""

    __module__ = _MOD
    _fn = staticmethod(_P.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """Max over windows of (N, C, H, W) or (C, H, W) inputs (F.max_pool2d)."""

    __module__ = _MOD
    _fn = staticmethod(_P.max_pool2d)


class AvgPool2d(Module):
    """Mean over windows of (N, C, H, W) or (C, H, W) inputs (F.avg_pool2d)."""

    __module__ = _MOD

    @python_errors
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Optional[int] = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        return _P.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
