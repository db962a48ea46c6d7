"""The loss modules of ``torch/nn/modules/loss.py``: each ``forward`` is the functional form.

``reduction='mean'|'sum'|'none'`` (the legacy ``size_average``/``reduce`` turn into a reduction with
PyTorch's warning); ``weight`` (and BCEWithLogitsLoss's ``pos_weight``) are buffers, as in PyTorch, so they
follow ``to(dtype)`` and appear in ``state_dict``.  ``print(loss_fn)`` is ``MSELoss()`` etc.
"""

from __future__ import annotations

from typing import Any, Optional

from ..autograd.tensor import Tensor
from ..errors import warn
from ..ops import nn as _F
from ._errors import nn_error
from .module import Module

__all__ = ["L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss",
           "NLLLoss", "KLDivLoss"]

_MOD = "torch.nn.modules.loss"


def _legacy_get_string(size_average: Optional[bool], reduce: Optional[bool]) -> str:
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    warn("other", f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
    return ret


class _Loss(Module):
    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean absolute error (F.l1_loss)."""

    __module__ = _MOD

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean squared error (F.mse_loss, MseLossBackward0)."""

    __module__ = _MOD

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared below ``beta``, absolute above (F.smooth_l1_loss)."""

    __module__ = _MOD

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared below ``delta``, ``delta``-scaled absolute above (F.huber_loss)."""

    __module__ = _MOD

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        if not isinstance(delta, (float, int)):
            raise nn_error(TypeError, f"delta must be a float or int, got: {_py_class(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities (F.binary_cross_entropy)."""

    __module__ = _MOD

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (F.binary_cross_entropy_with_logits)."""

    __module__ = _MOD

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean", pos_weight: Optional[Tensor] = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                   reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log likelihood of log-probabilities (F.nll_loss)."""

    __module__ = _MOD

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, ignore_index: int = -100,
                 reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                           reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """log_softmax then nll_loss (F.cross_entropy), with ``ignore_index`` and ``label_smoothing``."""

    __module__ = _MOD

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, ignore_index: int = -100,
                 reduce: Any = None, reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                                reduction=self.reduction, label_smoothing=self.label_smoothing)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities (F.kl_div)."""

    __module__ = _MOD

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


def _py_class(v: Any) -> str:
    t = type(v)
    return f"<class '{t.__qualname__}'>" if t.__module__ == "builtins" else f"<class '{t.__module__}.{t.__qualname__}'>"
