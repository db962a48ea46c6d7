"""The loss modules of ``torch/nn/modules/loss.py``: each ``forward`` is the functional form.

``reduction='mean'|'sum'|'none'`` (the legacy ``size_average``/``reduce`` turn into a reduction with
PyTorch's warning); ``weight`` (and BCEWithLogitsLoss's ``pos_weight``) are buffers, as in PyTorch, so they
follow ``to(dtype)`` and appear in ``state_dict``.  ``print(loss_fn)`` is ``MSELoss()`` etc.
"""

from __future__ import annotations

from typing import Any, Optional

from ..autograd.tensor import Tensor
from ..errors import warn
from ..ops import loss_composite as _FC
from ..ops import margin_loss as _FM
from ..ops import nn as _F
from ._errors import nn_error
from .module import Module

__all__ = ["L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss",
           "NLLLoss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
           "MultiLabelSoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "MultiMarginLoss", "MultiLabelMarginLoss", "CTCLoss"]

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


class MarginRankingLoss(_Loss):
    """max(0, -y * (x1 - x2) + margin) (F.margin_ranking_loss)."""

    __module__ = _MOD

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return _FC.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """x where y is 1, max(0, margin - x) where y is -1 (F.hinge_embedding_loss)."""

    __module__ = _MOD

    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _FC.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) where y is 1, max(0, cos(x1, x2) - margin) where y is -1 (F.cosine_embedding_loss)."""

    __module__ = _MOD

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return _FC.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class logistic loss averaged over the classes (F.multilabel_soft_margin_loss)."""

    __module__ = _MOD

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _FC.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """max(0, margin + d(a, p) - d(a, n)) with the p-norm distance (F.triplet_margin_loss)."""

    __module__ = _MOD

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                 size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise nn_error(ValueError, f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return _FC.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                       swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """triplet_margin_loss with any distance function (F.triplet_margin_with_distance_loss)."""

    __module__ = _MOD

    def __init__(self, *, distance_function: Any = None, margin: float = 1.0, swap: bool = False,
                 reduction: str = "mean") -> None:
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise nn_error(ValueError, f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                                       f"{margin} instead")
        from .distance import PairwiseDistance

        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return _FC.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                     distance_function=self.distance_function, margin=self.margin,
                                                     swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """Negative log likelihood of a Poisson target (F.poisson_nll_loss)."""

    __module__ = _MOD

    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None, eps: float = 1e-8,
                 reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return _FC.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                    reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """Negative log likelihood of a Gaussian target with predicted variance (F.gaussian_nll_loss)."""

    __module__ = _MOD

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Any) -> Tensor:
        return _FC.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss (F.multi_margin_loss, MultiMarginLossBackward0)."""

    __module__ = _MOD

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Optional[Tensor] = None, size_average: Any = None,
                 reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise nn_error(ValueError, "only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise nn_error(ValueError, f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                                       f"{weight.dim()}D instead")
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _FM.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                     reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss (F.multilabel_margin_loss, MultilabelMarginLossBackward0)."""

    __module__ = _MOD

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return _FM.multilabel_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Loss):
    """The Connectionist Temporal Classification loss (F.ctc_loss, CtcLossBackward0)."""

    __module__ = _MOD

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any) -> Tensor:
        from ..ops.ctc_loss import ctc_loss

        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)


def _py_class(v: Any) -> str:
    t = type(v)
    return f"<class '{t.__qualname__}'>" if t.__module__ == "builtins" else f"<class '{t.__module__}.{t.__qualname__}'>"
