"""The losses and distances PyTorch 2.13 builds from other ops, op by op as it builds them, so the nodes
are PyTorch's.

ATen composites (aten/src/ATen/native/Loss.cpp, Distance.cpp), reached through the Python wrappers of
torch/nn/functional.py with their checks:

* margin_ranking_loss: ``(-target * (input1 - input2) + margin).clamp_min_(0)``;
* hinge_embedding_loss: ``where(target != 1, (margin - self).clamp_min_(0), 0) + where(target != -1, self, 0)``;
* cosine_embedding_loss: the cosine from sums of products (``+ 1e-12``, ``sqrt_``), ``1 - cos`` where the
  target is 1, ``(cos - margin).clamp_min_(0)`` where it is -1;
* pairwise_distance: ``at::norm(x1 - x2 + eps, p, innermost dim, keepdim)`` (NormBackward1);
* cosine_similarity: both inputs expanded to one shape when they differ, each divided by its 2-norm over
  ``dim`` (cloned, then clamped at eps without recording), the products summed over ``dim``;
* triplet_margin_loss: ``clamp_min(margin + d(anchor, positive) - d(anchor, negative), 0)``;
* poisson_nll_loss: ``exp(input) - target * input`` (or ``input - target * log(input + eps)``), plus the
  Stirling term where ``full`` and the target exceeds 1.

Python composites of torch/nn/functional.py: multilabel_soft_margin_loss, triplet_margin_with_distance_loss,
gaussian_nll_loss.  Each ends in ATen's ``apply_loss_reduction`` (``mean()`` / ``sum()`` / none).

C++'s ``scalar - tensor`` is ``empty_like(tensor).fill_(scalar).sub_(tensor)`` (SubBackward0, not Rsub):
:func:`_scalar_minus` builds it the same way.
"""

from __future__ import annotations

import math
from typing import Any

from ..autograd.dtypes import result_type
from ..errors import ArgumentTypeError, python_errors
from ._core import Tensor, broadcast_shapes, dt
from .creation import full_like, zeros_like
from .elementwise import clamp_min, exp, log, minimum, where
from .misc import masked_fill
from .nn import _TN, _need_tensor, _reduction, _runtime, logsigmoid
from .reduction import mean as _mean
from .reduction import sum as _sum
from .reduction_more import norm_dim, vector_norm
from .registry import register
from .shape import unsqueeze

__all__ = ["cosine_similarity", "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "pairwise_distance",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "poisson_nll_loss", "gaussian_nll_loss",
           "multilabel_soft_margin_loss"]

_EPSILON = 1e-12  # Loss.cpp's constexpr float EPSILON


def _apply_loss_reduction(unreduced: Tensor, reduction: str) -> Tensor:
    """Loss.cpp's apply_loss_reduction."""
    if reduction == "mean":
        return _mean(unreduced)
    if reduction == "sum":
        return _sum(unreduced)
    return unreduced


def _scalar_minus(x: float, t: Tensor) -> Tensor:
    """C++ ``x - t`` for a Scalar x: ``empty_like(t).fill_(x).sub_(t)``, so the node is SubBackward0."""
    return full_like(t, x).sub_(t)


def _size(t: Tensor) -> str:
    return "torch.Size([" + ", ".join(str(n) for n in t._data.shape) + "])"


def margin_ranking_loss(input1, input2, target, margin: float = 0, size_average=None, reduce=None,
                        reduction: str = "mean"):
    """max(0, -target * (input1 - input2) + margin), then the reduction (ClampMinBackward0 over AddBackward1
    over MulBackward0 over SubBackward0)."""
    for i, (n, t) in enumerate((("input1", input1), ("input2", input2), ("target", target))):
        _need_tensor("margin_ranking_loss", n, i + 1, t)
    reduction = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise _runtime("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                       f"input1: {_size(input1)}, input2: {_size(input2)}, target: {_size(target)} ")
    output = (-target * (input1 - input2) + margin).clamp_min_(0)
    return _apply_loss_reduction(output, reduction)


def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean"):
    """x where the target is not -1, plus max(0, margin - x) where it is not 1; then the reduction."""
    _need_tensor("hinge_embedding_loss", "input", 1, input)
    _need_tensor("hinge_embedding_loss", "target", 2, target)
    reduction = _reduction(reduction, size_average, reduce)
    zeros = zeros_like(input)
    margin_clamp = _scalar_minus(margin, input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    output = output_margin + output_self
    return _apply_loss_reduction(output, reduction)


def cosine_embedding_loss(input1, input2, target, margin: float = 0, size_average=None, reduce=None,
                          reduction: str = "mean"):
    """1 - cos(x1, x2) where the target is 1, max(0, cos(x1, x2) - margin) where it is -1; then the reduction."""
    for i, (n, t) in enumerate((("input1", input1), ("input2", input2), ("target", target))):
        _need_tensor("cosine_embedding_loss", n, i + 1, t)
    reduction = _reduction(reduction, size_average, reduce)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise _runtime("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and input1.dim() != 2:
        raise _runtime("1D target tensor expects 2D input tensors, but found inputs with sizes "
                       f"{list(input1._data.shape)} and {list(input2._data.shape)}.")
    if targ_dim == 0 and input1.dim() != 1:
        raise _runtime("0D target tensor expects 1D input tensors, but found inputs with sizes "
                       f"{list(input1._data.shape)} and {list(input2._data.shape)}.")
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = (input1 * input1).sum(targ_dim) + _EPSILON
    mag_square2 = (input2 * input2).sum(targ_dim) + _EPSILON
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = zeros_like(cos)
    pos = _scalar_minus(1, cos)
    neg = (cos - margin).clamp_min_(0)
    output_pos = where(target == 1, pos, zeros)
    output_neg = where(target == -1, neg, zeros)
    output = output_pos + output_neg
    return _apply_loss_reduction(output, reduction)


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    """The p-norm of x1 - x2 + eps over the last dim of the broadcast (NormBackward1 over AddBackward1 over
    SubBackward0)."""
    _need_tensor("pairwise_distance", "x1", 1, x1)
    _need_tensor("pairwise_distance", "x2", 2, x2)
    output_dim = max(x1.dim(), x2.dim())
    return norm_dim(x1 - x2 + eps, p, output_dim - 1, keepdim)


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    """<x1 / max(||x1||, eps), x2 / max(||x2||, eps)> over dim (SumBackward1 over MulBackward0 of two
    DivBackward0 by CloneBackward0 of LinalgVectorNormBackward0), Distance.cpp's normalise-first form."""
    from ..autograd.grad_mode import no_grad

    _need_tensor("cosine_similarity", "x1", 1, x1)
    _need_tensor("cosine_similarity", "x2", 2, x2)
    common = result_type(x1, x2)
    if not common.is_floating_point:
        raise _runtime(f"expected common dtype to be floating point, yet common dtype is {_TN[common.name]}")
    if not x1._dtype.is_floating_point:
        x1 = x1.to(common)
    if not x2._dtype.is_floating_point:
        x2 = x2.to(common)
    if x1._data.shape != x2._data.shape:  # expand_outplace expands both
        shape = broadcast_shapes(x1._data.shape, x2._data.shape)
        x1, x2 = x1.expand(*shape), x2.expand(*shape)
    x1_norm = vector_norm(x1, 2, dim, True).clone()
    x2_norm = vector_norm(x2, 2, dim, True).clone()
    with no_grad():
        x1_norm.clamp_min_(eps)
        x2_norm.clamp_min_(eps)
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None, reduction: str = "mean"):
    """max(0, margin + d(a, p) - d(a, n)) with d = pairwise_distance (``swap``: d(a, n) is the smaller of
    d(a, n) and d(p, n)); then the reduction."""
    for i, (n, t) in enumerate((("anchor", anchor), ("positive", positive), ("negative", negative))):
        _need_tensor("triplet_margin_loss", n, i + 1, t)
    reduction = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise _runtime(f"margin must be greater than 0, got {margin}", torch_type=ValueError)
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise _runtime("The anchor, positive, and negative tensors are expected to have the same number of "
                       f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_swap = pairwise_distance(positive, negative, p, eps)
        dist_neg = minimum(dist_neg, dist_swap)
    output = clamp_min(margin + dist_pos - dist_neg, 0)
    return _apply_loss_reduction(output, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean"):
    """triplet_margin_loss with any distance function (default pairwise_distance), torch/nn/functional.py's
    Python composite: ``torch.clamp_min(margin + dist_pos - dist_neg, 0)`` then torch.sum / torch.mean."""
    if reduction not in ("mean", "sum", "none"):
        raise _runtime(f"{reduction} is not a valid value for reduction", torch_type=ValueError)
    if margin <= 0:
        raise _runtime(f"margin must be greater than 0, got {margin}", torch_type=ValueError)
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise _runtime("The anchor, positive, and negative tensors are expected to have the same number of "
                       f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_swap = distance_function(positive, negative)
        dist_neg = minimum(dist_neg, dist_swap)
    loss = clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return _sum(loss)
    if reduction == "mean":
        return _mean(loss)
    return loss


def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean"):
    """exp(input) - target * input (``log_input``) or input - target * log(input + eps); ``full`` adds the
    Stirling term target * log(target) - target + 0.5 * log(2 pi target) where target > 1."""
    _need_tensor("poisson_nll_loss", "input", 1, input)
    _need_tensor("poisson_nll_loss", "target", 2, target)
    reduction = _reduction(reduction, size_average, reduce)
    if log_input:
        loss = exp(input) - target * input
    else:
        loss = input - target * log(input + eps)
    if full:
        stirling_term = target * log(target) - target + 0.5 * log(2 * math.pi * target)
        loss += masked_fill(stirling_term, target <= 1, 0)
    return _apply_loss_reduction(loss, reduction)


def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
    """0.5 * (log(var) + (input - target)**2 / var) with var cloned and clamped at eps without recording,
    torch/nn/functional.py's composite (``var`` one dim short of the input is unsqueezed: homoscedastic)."""
    from ..autograd.grad_mode import no_grad

    if isinstance(var, float):
        if var < 0:
            raise _runtime("var has negative entry/entries", torch_type=ValueError)
        var = var * full_like(input, 1.0)
    elif not isinstance(var, Tensor):
        raise ArgumentTypeError(f"gaussian_nll_loss(): argument 'var' must be Tensor or float, not "
                                f"{type(var).__name__}")
    elif bool((var < 0).any()):
        raise _runtime("var has negative entry/entries", torch_type=ValueError)
    vs, xs = tuple(var._data.shape), tuple(input._data.shape)
    if vs != xs:
        if xs[:-1] == vs:
            var = unsqueeze(var, -1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(xs, vs) if x != y) == 1:
            pass
        else:
            raise _runtime("var is of incorrect size", torch_type=ValueError)
    if reduction not in ("none", "mean", "sum"):
        raise _runtime(reduction + " is not valid", torch_type=ValueError)
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction: str = "mean"):
    """-(target * logsigmoid(x) + (1 - target) * logsigmoid(-x)), weighted, summed over the class dim and
    divided by the class count; torch/nn/functional.py's composite."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise _runtime(reduction + " is not valid", torch_type=ValueError)


def _f64(*shape, seed: int = 0, lo: float = -1.0, hi: float = 1.0, requires_grad: bool = True) -> Tensor:
    """A float64 gradcheck input (the registry's sample recipes)."""
    import numpy as np

    from .creation import tensor

    rng = np.random.default_rng(seed + 13 * len(shape) + sum(shape))
    return tensor(rng.uniform(lo, hi, size=shape).tolist(), dtype=dt.float64, requires_grad=requires_grad)


def _const(values) -> Tensor:
    from .creation import tensor

    return tensor(values, dtype=dt.float64)


def _reg(name: str, fn: Any, nodes: tuple, sample, torch_name: bool = False) -> None:
    # a wrong value fails inside the composite with Python's error, as in PyTorch's functional.py (its Python
    # composites: F.triplet_margin_with_distance_loss(10, -1, (3,)) is AttributeError 'ndim' there too)
    fn = globals()[name] = python_errors(fn)  # (nn/loss.py's modules call the module's function too)
    register(name, fn, "nn", torch=(name,) if torch_name else (), F=(name,), methods=(), nodes=nodes,
             formula="composite of recorded ops", sample=sample)


_SIGNS = [[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0]]
_reg("margin_ranking_loss", margin_ranking_loss, ("ClampMinBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(4), _f64(4, seed=1), _const([1.0, -1.0, 1.0, -1.0])), {"margin": 0.1}))
_reg("hinge_embedding_loss", hinge_embedding_loss, ("AddBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _const(_SIGNS)), {"margin": 2.0}))
_reg("cosine_embedding_loss", cosine_embedding_loss, ("AddBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _f64(3, 4, seed=1), _const([1.0, -1.0, -1.0])), {"margin": -0.9}))
_reg("pairwise_distance", pairwise_distance, ("NormBackward1",), lambda: ((_f64(3, 4), _f64(3, 4, seed=1)), {}),
     torch_name=True)
_reg("cosine_similarity", cosine_similarity, ("SumBackward1",), lambda: ((_f64(3, 4), _f64(4, seed=1)), {}),
     torch_name=True)
_reg("triplet_margin_loss", triplet_margin_loss, ("ClampMinBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _f64(3, 4, seed=1), _f64(3, 4, seed=2)), {"margin": 2.0}))
_reg("triplet_margin_with_distance_loss", triplet_margin_with_distance_loss,
     ("ClampMinBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _f64(3, 4, seed=1), _f64(3, 4, seed=2)), {"margin": 2.0, "swap": True}))
_reg("poisson_nll_loss", poisson_nll_loss, ("SubBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _f64(3, 4, seed=1, lo=0.0, hi=3.0, requires_grad=False)), {"full": True}))
_reg("gaussian_nll_loss", gaussian_nll_loss, ("MulBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _f64(3, 4, seed=1, requires_grad=False), _f64(3, 4, seed=2, lo=0.5, hi=1.5)), {}))
_reg("multilabel_soft_margin_loss", multilabel_soft_margin_loss, ("DivBackward0", "MeanBackward0", "SumBackward0"),
     lambda: ((_f64(3, 4), _const([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]])), {}))
