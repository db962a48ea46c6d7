"""torch.nn.Conv1d and torch.nn.Conv2d (``torch/nn/modules/conv.py``).

``_ConvNd.__init__`` as PyTorch's: the ValueErrors for ``groups``, the divisibility of the channels, a bad
padding string, ``padding='same'`` with a stride, a bad ``padding_mode``; ``weight`` is
``Parameter(torch.empty((out_channels, in_channels // groups, *kernel_size)))``, ``bias``
``Parameter(torch.empty(out_channels))`` (or None), initialised by ``reset_parameters`` exactly as PyTorch:
``kaiming_uniform_(weight, a=sqrt(5))`` then ``uniform_(bias, -1/sqrt(fan_in), 1/sqrt(fan_in))`` (the same
draws after ``torch.manual_seed``).  ``forward`` is ``F.conv1d`` / ``F.conv2d`` (ConvolutionBackward0; see
``gradcli.ops.conv`` for the values), after ``F.pad(input, _reversed_padding_repeated_twice,
mode=padding_mode)`` for a padding mode other than 'zeros' ('circular' is not supported by gradcli's
F.pad).  ``print(conv)`` is PyTorch's ``extra_repr``.  The two messages that print a Python set (a bad
padding string or padding mode) list it in one fixed order; PyTorch's order changes from run to run (string
hash randomization).
"""

from __future__ import annotations

import math
from typing import Any

from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import conv as _conv
from ..ops import creation
from . import init
from ._errors import nn_error
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["Conv1d", "Conv2d"]


def _ntuple(x: Any, n: int) -> tuple:
    """torch.nn.modules.utils._single / _pair: an iterable becomes a tuple, anything else n copies."""
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,) * n


def _reverse_repeat_tuple(t: tuple, n: int) -> tuple:
    return tuple(x for x in reversed(t) for _ in range(n))


class _ConvNd(Module):
    _dims = 0
    _fn: Any = None

    @python_errors
    @tracked_after_init
    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        n = self._dims
        kernel_size_ = _ntuple(kernel_size, n)
        stride_ = _ntuple(stride, n)
        padding_ = padding if isinstance(padding, str) else _ntuple(padding, n)
        dilation_ = _ntuple(dilation, n)
        super().__init__()
        if groups <= 0:
            raise nn_error(ValueError, "groups must be a positive integer")
        if in_channels % groups != 0:
            raise nn_error(ValueError, "in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise nn_error(ValueError, "out_channels must be divisible by groups")
        if isinstance(padding_, str):
            if padding_ not in ("same", "valid"):
                raise nn_error(ValueError, f"Invalid padding string {padding_!r}, should be one of {{'same', 'valid'}}")
            if padding_ == "same" and any(s != 1 for s in stride_):
                raise nn_error(ValueError, "padding='same' is not supported for strided convolutions")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise nn_error(ValueError, "padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but "
                           f"got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size_
        self.stride = stride_
        self.padding = padding_
        self.dilation = dilation_
        self.transposed = False
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(padding_, str):
            rev = [0, 0] * n
            if padding_ == "same":
                for d, k, i in zip(dilation_, kernel_size_, range(n - 1, -1, -1)):
                    total = d * (k - 1)
                    rev[2 * i] = total // 2
                    rev[2 * i + 1] = total - total // 2
            self._reversed_padding_repeated_twice = rev
        else:
            self._reversed_padding_repeated_twice = list(_reverse_repeat_tuple(padding_, 2))
        factory = {} if dtype is None else {"dtype": dtype}
        self.weight = Parameter(creation.empty((out_channels, in_channels // groups, *kernel_size_), **factory))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, **factory))
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

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Any) -> Tensor:
        fn = type(self)._fn
        if self.padding_mode != "zeros":
            padded = _conv.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return fn(padded, weight, bias, self.stride, (0,) * self._dims, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) or (C_in, L) inputs (F.conv1d); weight (out, in/groups, k)."""

    __module__ = "torch.nn.modules.conv"
    _dims = 1
    _fn = staticmethod(_conv.conv1d)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) or (C_in, H, W) inputs (F.conv2d); weight (out, in/groups, kH, kW)."""

    __module__ = "torch.nn.modules.conv"
    _dims = 2
    _fn = staticmethod(_conv.conv2d)
