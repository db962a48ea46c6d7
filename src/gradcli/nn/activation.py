"""The activation modules of ``torch/nn/modules/activation.py``: each ``forward`` is the functional form.

Constructor arguments, attributes and ``extra_repr`` (what ``print(model)`` shows) are PyTorch's:
``ReLU(inplace=True)``, ``LeakyReLU(negative_slope=0.01)``, ``GELU(approximate='none')``,
``Softmax(dim=None)`` (whose forward gives PyTorch's implicit-dim warning), ``Hardtanh(min_val=-1.0,
max_val=1.0)`` (AssertionError when ``max_val <= min_val``, kind ``assertion``).
"""

from __future__ import annotations

from typing import Any, Optional

from ..autograd.tensor import Tensor
from ..errors import error_class, warn
from ..ops import elementwise as _ew
from ..ops import nn as _F
from .module import Module

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "ELU", "CELU", "SELU", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid",
           "Hardsigmoid", "Hardswish", "Hardtanh", "Softplus", "Softsign", "Tanhshrink", "LogSigmoid",
           "Softmax", "Softmin", "LogSoftmax"]

_MOD = "torch.nn.modules.activation"


def _inplace_str(inplace: bool, lead: str = ", ") -> str:
    return f"{lead}inplace=True" if inplace else ""


class ReLU(Module):
    """max(0, x) (F.relu)."""

    __module__ = _MOD

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return _F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, "")


class Hardtanh(Module):
    """x clamped to [min_val, max_val] (F.hardtanh)."""

    __module__ = _MOD

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False,
                 min_value: Optional[float] = None, max_value: Optional[float] = None) -> None:
        super().__init__()
        if min_value is not None:
            warn("other", "keyword argument `min_value` is deprecated and renamed to `min_val`")
            min_val = min_value
        if max_value is not None:
            warn("other", "keyword argument `max_value` is deprecated and renamed to `max_val`")
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise error_class("assertion")(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input: Tensor) -> Tensor:
        return _F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self.inplace)}"


class ReLU6(Hardtanh):
    """min(max(0, x), 6) (Hardtanh(0, 6))."""

    __module__ = _MOD

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, "")


class Sigmoid(Module):
    """1 / (1 + exp(-x)) (torch.sigmoid)."""

    __module__ = _MOD

    def forward(self, input: Tensor) -> Tensor:
        return _ew.sigmoid(input)


class Tanh(Module):
    """tanh(x) (torch.tanh)."""

    __module__ = _MOD

    def forward(self, input: Tensor) -> Tensor:
        return _ew.tanh(input)


class _InplaceOnly(Module):
    _fn: Any = None

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._fn(input, inplace=self.inplace)


class SiLU(_InplaceOnly):
    """x * sigmoid(x) (F.silu)."""

    __module__ = _MOD
    _fn = staticmethod(_F.silu)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, "")


class Mish(_InplaceOnly):
    """x * tanh(softplus(x)) (F.mish)."""

    __module__ = _MOD
    _fn = staticmethod(_F.mish)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, "")


class SELU(_InplaceOnly):
    """Scaled ELU (F.selu)."""

    __module__ = _MOD
    _fn = staticmethod(_F.selu)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, "")


class Hardsigmoid(_InplaceOnly):
    """F.hardsigmoid."""

    __module__ = _MOD
    _fn = staticmethod(_F.hardsigmoid)


class Hardswish(_InplaceOnly):
    """F.hardswish."""

    __module__ = _MOD
    _fn = staticmethod(_F.hardswish)


class ELU(Module):
    """x if x > 0 else alpha * (exp(x) - 1) (F.elu)."""

    __module__ = _MOD

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return _F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class CELU(Module):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (F.celu)."""

    __module__ = _MOD

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return _F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class GELU(Module):
    """x * Phi(x) (F.gelu, approximate='none' or 'tanh')."""

    __module__ = _MOD

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return _F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class LeakyReLU(Module):
    """x if x > 0 else negative_slope * x (F.leaky_relu)."""

    __module__ = _MOD

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return _F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_str(self.inplace)}"


class LogSigmoid(Module):
    """log(sigmoid(x)) (F.logsigmoid)."""

    __module__ = _MOD

    def forward(self, input: Tensor) -> Tensor:
        return _F.logsigmoid(input)


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear above threshold (F.softplus)."""

    __module__ = _MOD

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        return _F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softsign(Module):
    """x / (1 + |x|) (F.softsign)."""

    __module__ = _MOD

    def forward(self, input: Tensor) -> Tensor:
        return _F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x) (F.tanhshrink)."""

    __module__ = _MOD

    def forward(self, input: Tensor) -> Tensor:
        return _F.tanhshrink(input)


class _DimModule(Module):
    _fn: Any = None

    def __init__(self, dim: Optional[int] = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._fn(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_DimModule):
    """exp(x) / sum(exp(x)) along ``dim`` (F.softmax)."""

    __module__ = _MOD
    _fn = staticmethod(_F.f_softmax)


class Softmin(_DimModule):
    """softmax(-x) along ``dim`` (F.softmin)."""

    __module__ = _MOD
    _fn = staticmethod(_F.softmin)


class LogSoftmax(_DimModule):
    """log(softmax(x)) along ``dim`` (F.log_softmax)."""

    __module__ = _MOD
    _fn = staticmethod(_F.f_log_softmax)
