"""torch.nn.functional: activations and losses, with PyTorch 2.13's nodes, composites and error kinds.

Activations: relu (the ``torch.relu`` op, plus ``inplace=``), leaky_relu (LeakyReluBackward0; in place
LeakyReluBackward1), gelu (GeluBackward0, ``approximate='none'|'tanh'``), softplus (SoftplusBackward0, ``beta``,
``threshold``), silu (SiluBackward0), sigmoid / tanh (the ``torch.`` ops, same nodes), softmax / log_softmax
(SoftmaxBackward0 / LogSoftmaxBackward0; ``F.softmax`` without ``dim`` warns and picks PyTorch's implicit dim;
``dtype=`` converts first, ToCopyBackward0).

Losses, each with ``reduction='mean'|'sum'|'none'`` (and the legacy ``size_average``/``reduce``):

* mse_loss: MseLossBackward0 (broadcast with a warning when the target's size differs, as PyTorch);
  with ``weight=`` the Python composite (pow, mul, sum, div);
* l1_loss: the ATen composite ``(input - target).abs()`` then mean/sum (MeanBackward0 / SumBackward0 over
  AbsBackward0 over SubBackward0);
* binary_cross_entropy: BinaryCrossEntropyBackward0, logs clamped at -100, backward divided by
  max((1 - x) x, 1e-12);
* binary_cross_entropy_with_logits: BinaryCrossEntropyWithLogitsBackward0, the stable log-sigmoid form,
  ``weight``/``pos_weight``;
* nll_loss: NllLossBackward0 (1-d/2-d input), NllLoss2DBackward0 for 4-d input and, after a view, for 3-d
  and >4-d input; ``weight``, ``ignore_index``;
* cross_entropy: NllLossBackward0 over LogSoftmaxBackward0 for class indices; PyTorch's composites for
  probability targets (DivBackward1 / NegBackward0 / SumBackward0 / MulBackward0) and label smoothing
  (AddBackward0 of two MulBackward1).

Non-differentiable arguments (weights, class-index targets) get no edge, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, error_class, warn
from . import parallel as _parallel
from ._core import Node, SavedTensor, Tensor, broadcast_shapes, dt, mode, record, saved
from .misc import check_int, check_number
from .registry import REGISTRY, register

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "gelu",
    "l1_loss",
    "leaky_relu",
    "log_softmax",
    "mse_loss",
    "nll_loss",
    "relu",
    "silu",
    "softmax",
    "softplus",
]

_TN = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int", "int16": "Short",
       "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _runtime(msg: str, hint: str | None = None, torch_type: type | None = None):
    return error_class("runtime")(msg, hint, torch_type=torch_type)


def _need_tensor(fn: str, name: str, pos: int, x) -> None:
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(x).__name__}")


def _python_attr(x, name: str) -> None:
    """torch.nn.functional code written in Python calls ``x.<name>(...)`` on what it is given: a non-tensor fails
    there with Python's AttributeError (``'NoneType' object has no attribute 'tanh'``), a ``runtime`` error."""
    if not isinstance(x, Tensor):
        from ..data.protocol import type_name
        from ..nn._errors import nn_error

        raise nn_error(AttributeError, f"'{type_name(x)}' object has no attribute '{name}'")


def _need_sizes(input, target) -> None:
    """The loss wrappers of torch/nn/functional.py compare ``target.size()`` with ``input.size()`` before any
    kernel checks its arguments: a non-tensor there is Python's AttributeError (kind runtime), target's first."""
    for x in (target, input):
        if not isinstance(x, Tensor):
            raise _runtime(f"'{type(x).__name__}' object has no attribute 'size'")


def _need_float(kernel: str, t: Tensor) -> None:
    if not t._dtype.is_floating_point:
        raise _runtime(f"\"{kernel}\" not implemented for '{_TN[t._dtype.name]}'",
                       "Convert to a floating dtype first, e.g. x.float().")


def _wrap(dim: int, ndim: int) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise ArgumentTypeError(f"dim must be an int, not {type(dim).__name__}")
    n = ndim if ndim else 1
    if not -n <= dim < n:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _out(t: Tensor) -> SavedTensor:
    return SavedTensor(t, is_output=True)


def _where(cond, a, b):
    from .elementwise import where

    return where(cond, a, b)


def _const_bool(a: np.ndarray) -> Tensor:
    return Tensor._from_data(np.asarray(a, dtype=bool), dt.bool_)


def _rename(t: Tensor, name: str) -> Tensor:
    from .misc import rename

    return rename(t, name)


def _inplace(input: Tensor, fn) -> Tensor:
    from .inplace import apply_inplace

    return apply_inplace(input, fn)


# --- scalar mul / div nodes (C++ Tensor * Scalar) ------------------------------------------------------------


class MulBackward1(Node):
    __slots__ = ("other",)
    formula = "self: grad * other (other a number)"

    def apply(self, grads):
        return (grads[0] * self.other,)


class DivBackward1(Node):
    __slots__ = ("other",)
    formula = "self: grad / other (other a number)"

    def apply(self, grads):
        return (grads[0] / self.other,)


def _mul_scalar(t: Tensor, s) -> Any:
    """t * s as ATen's mul.Scalar (MulBackward1)."""
    data = np.asarray(t._data * np.asarray(s, dtype=t._dtype.np), dtype=t._dtype.np)
    out, node = record(MulBackward1, data, t._dtype, (t,))
    if node is not None:
        node.other = s
    return out


def _div_scalar(t: Tensor, s) -> Tensor:
    """t / s as ATen's div.Scalar (DivBackward1)."""
    with np.errstate(all="ignore"):
        data = np.asarray(t._data / np.asarray(s, dtype=t._dtype.np), dtype=t._dtype.np)
    out, node = record(DivBackward1, data, t._dtype, (t,))
    if node is not None:
        node.other = s
    return out


# --- relu / leaky_relu -----------------------------------------------------------------------------------------


def relu(input, inplace: bool = False):
    """F.relu: max(input, 0) (ReluBackward0, the torch.relu op); ``inplace=True`` is relu_."""
    from .elementwise import relu as _relu

    _need_tensor("relu", "input", 1, input)
    if inplace:
        return relu_(input)
    return _relu(input)


def relu_(input):
    """relu in place (ReluBackward0), with PyTorch's in-place checks."""
    from .elementwise import relu as _relu

    _need_tensor("relu_", "input", 1, input)
    return _inplace(input, _relu)


class LeakyReluBackward0(Node):
    __slots__ = ("negative_slope",)
    formula = "self: grad where self > 0, else grad * negative_slope"

    def apply(self, grads):
        from .misc import diag_link

        x = self._unpack(0)
        pos = x._data > 0
        slope = self.negative_slope
        return (diag_link(lambda g: np.where(pos, g, g * np.asarray(slope, g.dtype)), grads[0], x,
                          "LeakyReluBackwardBackward0"),)


class LeakyReluBackward1(LeakyReluBackward0):
    __slots__ = ()
    formula = "self: grad where result > 0, else grad * negative_slope"


def _leaky(input: Tensor, slope, node_cls) -> Tensor:
    a = input._data
    data = np.where(a > 0, a, a * np.asarray(slope, dtype=a.dtype)).astype(a.dtype, copy=False)
    out, node = record(node_cls, data, input._dtype, (input,))
    if node is not None:
        node.negative_slope = slope
        node._save(_out(out) if node_cls is LeakyReluBackward1 else saved(input))
    return out


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    """x if x > 0 else negative_slope * x (LeakyReluBackward0; in place LeakyReluBackward1); the gradient at 0
    is negative_slope, as PyTorch."""
    _need_tensor("leaky_relu", "input", 1, input)
    check_number("leaky_relu", "negative_slope", negative_slope)
    _need_float("leaky_relu_cpu", input)
    if inplace:
        return _inplace(input, lambda old: _leaky(old, negative_slope, LeakyReluBackward1))
    return _leaky(input, negative_slope, LeakyReluBackward0)


# --- gelu --------------------------------------------------------------------------------------------------------

_SQRT1_2 = 1.0 / math.sqrt(2.0)
_K_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5
_K_KAPPA = 0.044715
_PDF = 1.0 / math.sqrt(2.0 * math.pi)


class GeluBackward0(Node):
    __slots__ = ("approximate",)
    formula = ("self: grad * (cdf(x) + x * pdf(x)) for 'none'; for 'tanh' the derivative of "
               "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        if self.approximate == "tanh":
            x_sq = x * x
            inner = (x + x_sq * x * _K_KAPPA) * _K_BETA
            t = inner.tanh()
            left = x * 0.5
            right = t + 1
            left_d = right * 0.5
            right_d = (1 - t * t) * ((x_sq * (3 * _K_KAPPA) + 1) * _K_BETA)
            return (_rename(g * (left_d + left * right_d), "GeluBackwardBackward0"),)
        cdf = ((x * _SQRT1_2).erf() + 1) * 0.5
        pdf = (x * x * -0.5).exp() * _PDF
        return (_rename(g * (cdf + x * pdf), "GeluBackwardBackward0"),)


def _erf_np(a: np.ndarray) -> np.ndarray:
    f = np.vectorize(math.erf, otypes=[np.float64])
    return f(a.astype(np.float64)) if a.size else a.astype(np.float64)


def gelu(input, approximate: str = "none"):
    """Gaussian error linear unit x * Phi(x), or its tanh approximation (GeluBackward0)."""
    _need_tensor("gelu", "input", 1, input)
    if not isinstance(approximate, str):
        raise ArgumentTypeError(f"gelu(): argument 'approximate' must be str, not {type(approximate).__name__}")
    if approximate not in ("none", "tanh"):
        raise _runtime("approximate argument must be either none or tanh.")
    _need_float("GeluKernelImpl", input)
    a = input._data.astype(np.float64)
    if approximate == "tanh":
        data = 0.5 * a * (1 + np.tanh(_K_BETA * (a + _K_KAPPA * a * a * a)))
    else:
        data = a * 0.5 * (1 + _erf_np(a * _SQRT1_2))
    out, node = record(GeluBackward0, data.astype(input._dtype.np), input._dtype, (input,))
    if node is not None:
        node.approximate = approximate
        node._save(saved(input))
    return out


# --- softplus / silu -----------------------------------------------------------------------------------------------


class SoftplusBackward0(Node):
    __slots__ = ("beta", "threshold")
    formula = "self: grad where self * beta > threshold, else grad * z / (z + 1) with z = exp(self * beta)"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        xb = x * self.beta
        z = xb.exp()
        return (_rename(_where(xb > self.threshold, g, g * z / (z + 1)), "SoftplusBackwardBackward0"),)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, linear where beta x > threshold (SoftplusBackward0)."""
    _need_tensor("softplus", "input", 1, input)
    check_number("softplus", "beta", beta)
    check_number("softplus", "threshold", threshold)
    _need_float("softplus_cpu", input)
    a = input._data.astype(np.float64)
    with np.errstate(all="ignore"):
        xb = a * beta
        data = np.where(xb > threshold, a, np.log1p(np.exp(xb)) / beta)
    out, node = record(SoftplusBackward0, data.astype(input._dtype.np), input._dtype, (input,))
    if node is not None:
        node.beta, node.threshold = beta, threshold
        node._save(saved(input))
    return out


class SiluBackward0(Node):
    __slots__ = ()
    formula = "self: grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        s = x.sigmoid()
        return (g * (s * (1 + x * (1 - s))),)


def _silu(input: Tensor) -> Tensor:
    a = input._data.astype(np.float64)
    with np.errstate(all="ignore"):
        data = a / (1 + np.exp(-a))
    out, node = record(SiluBackward0, data.astype(input._dtype.np), input._dtype, (input,))
    if node is not None:
        node._save(saved(input))
    return out


def silu(input, inplace: bool = False):
    """x * sigmoid(x) (SiluBackward0)."""
    _need_tensor("silu", "input", 1, input)
    _need_float("silu_cpu", input)
    if inplace:
        return _inplace(input, _silu)
    return _silu(input)


# --- softmax / log_softmax ---------------------------------------------------------------------------------------------


class SoftmaxBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: result * (grad - (grad * result).sum(dim, keepdim=True))"

    def apply(self, grads):
        g = grads[0]
        r = self._unpack(0)
        if r._data.ndim == 0:
            return (_rename(r * (g - g * r), "SoftmaxBackwardDataBackward0"),)
        return (_rename(r * (g - (g * r).sum(dim=self.dim, keepdim=True)), "SoftmaxBackwardDataBackward0"),)


class LogSoftmaxBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad - result.exp() * grad.sum(dim, keepdim=True)"

    def apply(self, grads):
        g = grads[0]
        r = self._unpack(0)
        if g._dtype is dt.float32 and not mode.enabled:
            # PyTorch's float32 kernel computes grad - exp(result) * sum as one fused multiply-subtract (a
            # cancellation of equal inputs shows it): the float32 product and difference, rounded once
            s = g._data if r._data.ndim == 0 else g._data.sum(axis=self.dim, keepdims=True)
            e = r.exp()._data
            return (Tensor._from_data(_fused_grad_minus(g._data, e, s), g._dtype),)
        if r._data.ndim == 0:
            return (_rename(g - r.exp() * g, "LogSoftmaxBackwardDataBackward0"),)
        return (_rename(g - r.exp() * g.sum(dim=self.dim, keepdim=True), "LogSoftmaxBackwardDataBackward0"),)


_FUSED_ROWS = 1 << 16  # elements per block of rows of _fused_grad_minus and _softmax_rows


def _fused_grad_minus(g: np.ndarray, e: np.ndarray, s: np.ndarray) -> np.ndarray:
    """float32 ``g - e * s`` rounded once (computed in float64): g, e of one shape, s broadcast against them
    (summed over the softmax dim).  Rows of the last dim are done in blocks (no whole-size float64
    temporaries), on two threads for large inputs (ops/parallel.py); the values do not depend on the split."""
    if g.ndim < 2 or s.shape != g.shape[:-1] + (1,) or not (g.flags.c_contiguous and e.flags.c_contiguous):
        out = g.astype(np.float64) - e.astype(np.float64) * s.astype(np.float64)
        return np.asarray(out.astype(np.float32))  # (a 0-d result is a numpy scalar)
    width = g.shape[-1]
    g2, e2, s2 = g.reshape(-1, width), e.reshape(-1, width), s.reshape(-1, 1)
    out = np.empty(g.shape, np.float32)
    o2 = out.reshape(-1, width)

    def block(r0: int, r1: int) -> None:
        b = g2[r0:r1].astype(np.float64)
        b -= e2[r0:r1].astype(np.float64) * s2[r0:r1].astype(np.float64)
        o2[r0:r1] = b

    _parallel.row_blocks(g2.shape[0], max(1, _FUSED_ROWS // max(width, 1)), block,
                         g.size >= _parallel.PARALLEL_MIN)
    return out


def _softmax_rows(a: np.ndarray, log: bool) -> np.ndarray:
    """(log_)softmax over the last dim of a large C-contiguous array: the same per-row steps as the general
    path (max, shift, exp, sum, log), in blocks of rows on two threads (ops/parallel.py); every row's values
    are those of one whole-array call (numpy reduces each row of a contiguous block alike)."""
    width = a.shape[-1]
    a2 = a.reshape(-1, width)
    out = np.empty(a.shape, a.dtype)
    o2 = out.reshape(-1, width)

    def block(r0: int, r1: int) -> None:
        with np.errstate(all="ignore"):
            x = a2[r0:r1]
            sh = x - np.max(x, axis=1, keepdims=True)
            e = np.exp(sh)
            s = np.sum(e, axis=1, keepdims=True)
            o2[r0:r1] = sh - np.log(s) if log else e / s

    _parallel.row_blocks(a2.shape[0], max(1, _FUSED_ROWS // max(width, 1)), block, True)
    return out


def _softmax_impl(input, dim, dtype, log: bool) -> Tensor:
    name = "log_softmax" if log else "softmax"
    _need_tensor(name, "input", 1, input)
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise ArgumentTypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    src = input
    if dtype is not None:
        if not isinstance(dtype, dt.dtype):
            raise ArgumentTypeError(f"{name}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
        src = input.to(dtype)
    nd = src._data.ndim
    d = _wrap(dim, nd)
    if not src._dtype.is_floating_point:
        kern = f"{name}_lastdim_kernel_impl" if nd == 0 or d == nd - 1 else f"{name}_kernel_impl"
        raise _runtime(f"\"{kern}\" not implemented for '{_TN[src._dtype.name]}'",
                       "Convert to a floating dtype first, or pass dtype=torch.float32.")
    a = src._data
    with np.errstate(all="ignore"):
        if nd == 0:
            data = np.zeros((), a.dtype) if log else np.ones((), a.dtype)
            data = np.where(np.isfinite(a), data, np.nan)  # x - max is inf - inf for +-inf: nan, as for nan
        elif d == nd - 1 and a.flags.c_contiguous and a.size >= _parallel.PARALLEL_MIN and nd > 1:
            data = _softmax_rows(a, log)
        else:
            m = np.max(a, axis=d, keepdims=True) if a.size else a
            sh = a - m
            e = np.exp(sh)
            s = np.sum(e, axis=d, keepdims=True)
            data = sh - np.log(s) if log else e / s
    out, node = record(LogSoftmaxBackward0 if log else SoftmaxBackward0, np.asarray(data, dtype=a.dtype), src._dtype,
                       (src,))
    if node is not None:
        node.dim = d
        node._save(_out(out))
    return out


def softmax(input, dim, dtype=None):
    """torch.softmax / Tensor.softmax: exp(x) / exp(x).sum(dim), computed with the max subtracted
    (SoftmaxBackward0); ``dtype`` converts the input first."""
    return _softmax_impl(input, dim, dtype, False)


def log_softmax(input, dim, dtype=None):
    """torch.log_softmax / Tensor.log_softmax: x - logsumexp(x, dim) (LogSoftmaxBackward0)."""
    return _softmax_impl(input, dim, dtype, True)


def _implicit_dim(name: str, ndim: int) -> int:
    warn("other", f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an "
                  "argument.")
    return 0 if ndim in (0, 1, 3) else 1


def f_softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    """F.softmax: like torch.softmax, but ``dim=None`` warns (kind other) and picks PyTorch's implicit dim
    (0 for 0-, 1- and 3-d input, else 1)."""
    if not isinstance(input, Tensor):  # F.softmax calls input.softmax(dim) (input.dim() without dim)
        raise _runtime(f"'{type(input).__name__}' object has no attribute '{'dim' if dim is None else 'softmax'}'")
    if dim is None:
        dim = _implicit_dim("softmax", input._data.ndim)
    return _softmax_impl(input, dim, dtype, False)


def f_log_softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    """F.log_softmax: like torch.log_softmax, but ``dim=None`` warns and picks PyTorch's implicit dim."""
    if not isinstance(input, Tensor):  # F.log_softmax calls input.log_softmax(dim) (input.dim() without dim)
        raise _runtime(f"'{type(input).__name__}' object has no attribute '{'dim' if dim is None else 'log_softmax'}'")
    if dim is None:
        dim = _implicit_dim("log_softmax", input._data.ndim)
    return _softmax_impl(input, dim, dtype, True)


# --- loss helpers ----------------------------------------------------------------------------------------------------------


def _reduction(reduction, size_average=None, reduce=None) -> str:
    """Validate reduction (PyTorch's _Reduction.get_enum / legacy_get_string)."""
    if not isinstance(reduction, str):
        raise ArgumentTypeError(f"reduction must be a str, not {type(reduction).__name__}")
    if size_average is not None or reduce is not None:
        sa = True if size_average is None else size_average
        rd = True if reduce is None else reduce
        reduction = "mean" if sa and rd else ("sum" if rd else "none")
        warn("other", f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.")
    if reduction == "elementwise_mean":
        warn("other", "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        reduction = "mean"
    if reduction not in ("none", "mean", "sum"):
        raise _runtime(f"{reduction} is not a valid value for reduction", "Use reduction='mean', 'sum' or 'none'.",
                       torch_type=ValueError)
    return reduction


def _size_str(shape) -> str:
    return f"torch.Size([{', '.join(str(int(s)) for s in shape)}])"


def _size_warning(input: Tensor, target: Tensor) -> None:
    if input._data.shape != target._data.shape:
        warn("other", f"Using a target size ({_size_str(target._data.shape)}) that is different to the input size "
                      f"({_size_str(input._data.shape)}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.")


def _broadcast_pair(a: Any, b: Any):
    shape = broadcast_shapes(a._data.shape, b._data.shape)
    if a._data.shape != shape:
        a = a.expand(shape)
    if b._data.shape != shape:
        b = b.expand(shape)
    return a, b


def _reduce_np(loss: np.ndarray, reduction: str, dtype) -> np.ndarray:
    """apply_loss_reduction (aten/src/ATen/native/Loss.cpp): ``loss.sum()`` or ``loss.mean()`` of the
    elementwise loss, in the sum kernel's order (as :func:`.reduction.sum` / :func:`.reduction.mean`)."""
    from .reduction import _full_sum, plus_zero

    if reduction == "none":
        return loss.astype(dtype.np, copy=False)
    loss = np.ascontiguousarray(loss, dtype=dtype.np)
    if reduction == "sum":
        return plus_zero(_full_sum(loss, dtype))
    if not loss.size:
        return np.asarray(np.nan, dtype=dtype.np)
    return plus_zero(np.asarray(_full_sum(loss, dtype) / dtype.np.type(loss.size), dtype=dtype.np))


def _result_dtype(a: Tensor, b: Tensor):
    from ._core import result_dtype

    return result_dtype(a, b)


# --- mse_loss / l1_loss ------------------------------------------------------------------------------------------------------


class MseLossBackward0(Node):
    __slots__ = ("numel", "reduction")
    formula = "self: 2 * (self - target) * grad (/ numel for mean); target: -2 * (self - target) * grad"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        t = self._unpack(1)
        norm = (2.0 / self.numel if self.numel else math.inf) if self.reduction == "mean" else 2.0
        n = self._needs
        gs = _rename((x - t) * norm * g, "MseLossBackwardBackward0") if n[0] else None
        gt = _rename((t - x) * norm * g, "MseLossBackwardBackward0") if n[1] else None
        return (gs, gt)


def _weighted(errors: Any, weight: Tensor, reduction: str) -> Any:
    from .reduction import sum as _sum

    w = errors * weight
    if reduction == "none":
        return w
    if reduction == "sum":
        return _sum(w)
    return _sum(w) / _sum(weight)


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    """Mean squared error (MseLossBackward0); a target of a different size broadcasts with a warning."""
    _need_sizes(input, target)
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_pair(input, target)
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise ArgumentTypeError(f"weight must be a Tensor, not {type(weight).__name__}")
        if weight._data.shape != input._data.shape:
            raise _runtime("Weights and input must have the same size.", torch_type=ValueError)
        if reduction not in ("none", "mean", "sum"):
            raise _runtime(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.",
                           torch_type=ValueError)
        return _weighted((x - t).pow(2), weight, reduction)
    reduction = _reduction(reduction)
    dtype = _result_dtype(x, t)
    if not dtype.is_floating_point:
        raise _runtime(f"\"mse_cpu\" not implemented for '{_TN[dtype.name]}'")
    d = x._data.astype(dtype.np) - t._data.astype(dtype.np)
    data = _reduce_np(d * d, reduction, dtype)
    out, node = record(MseLossBackward0, data, dtype, (x, t))
    if node is not None:
        node.reduction, node.numel = reduction, x._data.size
        node._save(saved(x), saved(t))
    return out


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    """Mean absolute error, PyTorch's composite (input - target).abs() then mean/sum (MeanBackward0 /
    SumBackward0 over AbsBackward0 over SubBackward0); the gradient is 0 where input == target."""
    from .reduction import mean as _mean
    from .reduction import sum as _sum

    _need_sizes(input, target)
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_pair(input, target)
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise ArgumentTypeError(f"weight must be a Tensor, not {type(weight).__name__}")
        if weight._data.shape != input._data.shape:
            raise _runtime("Weights and input must have the same size.", torch_type=ValueError)
        if reduction not in ("none", "mean", "sum"):
            raise _runtime(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.",
                           torch_type=ValueError)
        return _weighted((x - t).abs(), weight, reduction)
    reduction = _reduction(reduction)
    loss = (x - t).abs()
    if reduction == "mean":
        return _mean(loss)
    if reduction == "sum":
        return _sum(loss)
    return loss


# --- smooth_l1_loss / huber_loss --------------------------------------------------------------------------------------------


def _norm(reduction: str, numel: int, dtype) -> Any:
    """1/numel for a mean reduction (PyTorch's ``norm`` of the loss backward kernels), else 1."""
    if reduction != "mean":
        return dtype.np.type(1.0)
    return dtype.np.type(1.0 / numel) if numel else dtype.np.type(math.inf)


def _piecewise_grad(go: Tensor, x: Tensor, t: Tensor, reduction: str, limit: float, kind: str) -> Tensor:
    """smooth_l1_loss_backward / huber_loss_backward of PyTorch's CPU kernels, as one differentiable op whose
    derivative is the masked ``double_backward`` formula of derivatives.yaml.

    smooth_l1: x <= -beta: -norm g; x >= beta: norm g; else norm x g / beta (x = self - target);
    huber: x < -delta: -norm g delta; x > delta: norm g delta; else norm x g.
    """
    dtype = _result_dtype(x, t)
    shape = broadcast_shapes(x._data.shape, t._data.shape)
    d = (x._data.astype(dtype.np) - t._data.astype(dtype.np))
    norm = _norm(reduction, int(np.prod(shape)), dtype)
    g = np.broadcast_to(go._data.astype(dtype.np), shape)
    lim = dtype.np.type(limit)
    with np.errstate(all="ignore"):
        if kind == "smooth_l1":
            data = np.where(d <= -lim, -norm * g, np.where(d >= lim, norm * g, norm * d * g / lim))
        else:
            data = np.where(d < -lim, -norm * g * lim, np.where(d > lim, norm * g * lim, norm * d * g))
    data = np.asarray(np.broadcast_to(data, shape), dtype=dtype.np).copy()
    node_cls = SmoothL1LossBackwardBackward0 if kind == "smooth_l1" else HuberLossBackwardBackward0
    out, node = record(node_cls, data, dtype, (go, x, t))
    if node is not None:
        node.reduction, node.limit = reduction, limit
        node._save(saved(go), saved(x), saved(t))
    return out


class _PiecewiseBackwardBackward(Node):
    """The derivative of smooth_l1/huber_loss_backward (derivatives.yaml): grad_output gets the first
    derivative applied to grad (summed unless reduction='none'); self/target the masked second derivative."""

    __slots__ = ("reduction", "limit")
    kind = ""

    def apply(self, grads):
        gg = grads[0]
        go, x, t = self._unpack(0), self._unpack(1), self._unpack(2)
        n = self._needs
        ggo = gx = gt = None
        if n[0]:
            if self.reduction == "none":
                ggo = _piecewise_grad(gg, x, t, self.reduction, self.limit, self.kind)
            else:
                from .creation import ones_like

                ggo = (_piecewise_grad(ones_like(go), x, t, self.reduction, self.limit, self.kind) * gg).sum()
        if n[1] or n[2]:
            d = (x - t).abs()
            mask = (d < self.limit).to(gg.dtype)
            second = gg * go * mask
            if self.kind == "smooth_l1":
                second = second / self.limit
            if self.reduction == "mean":
                second = second / d.numel()
            gx = second if n[1] else None
            gt = -second if n[2] else None
        return (ggo, gx, gt)


class SmoothL1LossBackwardBackward0(_PiecewiseBackwardBackward):
    __slots__ = ()
    kind = "smooth_l1"
    formula = ("grad_output: smooth_l1_loss_backward(grad, self, target); self: grad * grad_output * (|self - "
               "target| < beta) / beta (/ numel); target: -(the same)")


class HuberLossBackwardBackward0(_PiecewiseBackwardBackward):
    __slots__ = ()
    kind = "huber"
    formula = ("grad_output: huber_loss_backward(grad, self, target); self: grad * grad_output * (|self - "
               "target| < delta) (/ numel); target: -(the same)")


class SmoothL1LossBackward0(Node):
    __slots__ = ("reduction", "beta")
    formula = ("self: smooth_l1_loss_backward(grad, self, target, beta); target: smooth_l1_loss_backward(grad, "
               "target, self, beta)")
    kind = "smooth_l1"

    def apply(self, grads):
        g = grads[0]
        x, t = self._unpack(0), self._unpack(1)
        n = self._needs
        limit = self.beta if self.kind == "smooth_l1" else self.delta  # type: ignore[attr-defined]
        gs = _piecewise_grad(g, x, t, self.reduction, limit, self.kind) if n[0] else None
        gt = _piecewise_grad(g, t, x, self.reduction, limit, self.kind) if n[1] else None
        return (gs, gt)


class HuberLossBackward0(SmoothL1LossBackward0):
    __slots__ = ("delta",)
    formula = ("self: huber_loss_backward(grad, self, target, delta); target: huber_loss_backward(grad, target, "
               "self, delta)")
    kind = "huber"


def _piecewise_loss(name: str, input, target, reduction: str, limit: float) -> Tensor:
    x, t = _broadcast_pair(input, target)
    dtype = _result_dtype(x, t)
    if not dtype.is_floating_point:
        raise _runtime(f"\"{name}\" not implemented for '{_TN[dtype.name]}'")
    d = x._data.astype(dtype.np) - t._data.astype(dtype.np)
    z = np.abs(d)
    lim = dtype.np.type(limit)
    half = dtype.np.type(0.5)
    with np.errstate(all="ignore"):
        if name == "smooth_l1_loss":
            loss = np.where(z < lim, half * z * z / lim, z - half * lim)
        else:
            loss = np.where(z < lim, half * z * z, lim * (z - half * lim))
    data = _reduce_np(np.asarray(loss, dtype=dtype.np), reduction, dtype)
    if name == "smooth_l1_loss":
        out, node = record(SmoothL1LossBackward0, data, dtype, (x, t))
        if node is not None:
            node.reduction, node.beta = reduction, limit
    else:
        out, node = record(HuberLossBackward0, data, dtype, (x, t))
        if node is not None:
            node.reduction, node.delta = reduction, limit
    if node is not None:
        node._save(saved(x), saved(t))
    return out


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0):
    """0.5 z^2 / beta where z = |input - target| < beta, else z - 0.5 beta (SmoothL1LossBackward0); beta = 0
    is l1_loss; a target of a different size broadcasts with PyTorch's warning."""
    _need_sizes(input, target)
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    reduction = _reduction(reduction)
    if beta == 0.0:
        return l1_loss(*_broadcast_pair(input, target), reduction=reduction)
    if beta < 0:
        raise _runtime("smooth_l1_loss does not support negative values for beta.")
    return _piecewise_loss("smooth_l1_loss", input, target, reduction, float(beta))


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    """0.5 z^2 where z = |input - target| < delta, else delta (z - 0.5 delta) (HuberLossBackward0)."""
    _need_sizes(input, target)
    _size_warning(input, target)
    reduction = _reduction(reduction)
    if weight is not None:
        raise error_class("unsupported")("F.huber_loss(weight=...) is not implemented in gradcli (yet)")
    if delta <= 0:
        raise _runtime("huber_loss does not support non-positive values for delta.")
    return _piecewise_loss("huber_loss", input, target, reduction, float(delta))


# --- kl_div ----------------------------------------------------------------------------------------------------------


class XlogyBackward0(Node):
    __slots__ = ()
    formula = "self: xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0); other: grad * self / other"

    def apply(self, grads):
        g = grads[0]
        a, b = self._unpack(0), self._unpack(1)
        n = self._needs
        # PyTorch 2.13: log(other) also where self == 0 (x = 0, y = 0.5 gives log(0.5)), 0 only where other <= 0
        ga = xlogy(g, b).masked_fill((a == 0) & (b <= 0), 0.0) if n[0] else None
        gb = g * a / b if n[1] else None
        return (ga, gb)


class XlogyBackward1(Node):
    """xlogy.Scalar_Self (a number ``self``): edge other only."""

    __slots__ = ("self_scalar",)
    formula = "other: grad * self / other (self a number)"

    def apply(self, grads):
        b = self._unpack(0)
        return (grads[0] * self.self_scalar / b if self._needs[0] else None,)


class XlogyBackward2(Node):
    """xlogy.Scalar_Other (a number ``other``): edge self only."""

    __slots__ = ("other_scalar",)
    formula = "self: xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0) (other a number)"

    def apply(self, grads):
        if not self._needs[0]:
            return (None,)
        a = self._unpack(0)
        ga = xlogy(grads[0], self.other_scalar)
        return (ga.masked_fill(a == 0, 0.0) if self.other_scalar <= 0 else ga,)


def xlogy(input, other):
    """input * log(other), 0 where input == 0 (unless other is nan) (XlogyBackward0); a float log is the float64
    one rounded, as the engine's log."""
    from ._core import result_dtype

    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise ArgumentTypeError("xlogy(): argument 'self' (position 1) must be Tensor, not "
                                f"{type(input).__name__}")
    a = input if isinstance(input, Tensor) else Tensor._from_data(np.asarray(input), dt.get_default_dtype())
    b = other if isinstance(other, Tensor) else Tensor._from_data(np.asarray(other), dt.get_default_dtype())
    dtype = result_dtype(input, other)
    if not dtype.is_floating_point:
        dtype = dt.get_default_dtype()
    x = a._data.astype(dtype.np)
    y = b._data.astype(dtype.np)
    try:
        shape = broadcast_shapes(a._data.shape, b._data.shape)
    except Exception:
        from ._core import shape_error

        raise shape_error(a._data.shape, b._data.shape) from None
    with np.errstate(all="ignore"):
        logy = np.log(y.astype(np.float64)).astype(dtype.np) if dtype.np == np.float32 else np.log(y)
        data = np.where(np.isnan(y), np.asarray(np.nan, dtype.np), np.where(x == 0, dtype.np.type(0), x * logy))
    data = np.asarray(np.broadcast_to(data, shape), dtype=dtype.np).copy()
    if not isinstance(input, Tensor):  # the Scalar overloads: a node over the tensor alone
        out, node = record(XlogyBackward1, data, dtype, (b,))
        if node is not None:
            node.self_scalar = input
            node._save(saved(b))
        return out
    if not isinstance(other, Tensor):
        out, node = record(XlogyBackward2, data, dtype, (a,))
        if node is not None:
            node.other_scalar = other
            node._save(saved(a))
        return out
    out, node = record(XlogyBackward0, data, dtype, (a, b))
    if node is not None:
        node._save(saved(a, b._requires_grad or a._requires_grad), saved(b, a._requires_grad or b._requires_grad))
    return out


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    """KL divergence of log-probabilities, ATen's composite: ``exp(target) * (target - input)`` (log_target)
    or ``xlogy(target, target) - target * input``, then mean/sum; 'batchmean' divides the sum by the batch
    size; 'mean' gives PyTorch's warning."""
    from .elementwise import exp
    from .reduction import mean as _mean
    from .reduction import sum as _sum

    _need_tensor("kl_div", "input", 1, input)
    _need_tensor("kl_div", "target", 2, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    elif reduction == "mean":
        warn("other", "reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    if reduction == "batchmean":
        inner = "sum"
    else:
        inner = _reduction(reduction)
    if log_target:
        output = exp(target) * (target - input)
    else:
        output = xlogy(target, target) - target * input
    if inner == "mean":
        reduced = _mean(output)
    elif inner == "sum":
        reduced = _sum(output)
    else:
        reduced = output
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


# --- binary cross entropy ------------------------------------------------------------------------------------------------------

_EPS = 1e-12
# The first-order CPU kernel's EPSILON is a C++ float: 1e-12 rounded to float32 (9.99999996e-13), even for double
# inputs, so 1/EPSILON there is 1000000003995.8 (measured on PyTorch 2.13). The double-backward formulas use 1e-12.
_KERNEL_EPS = float(np.float32(1e-12))


class BinaryCrossEntropyBackward0(Node):
    __slots__ = ("has_weight", "numel", "reduction")
    formula = ("self: grad * (self - target) / max((1 - self) * self, 1e-12) * weight (/ numel for mean); "
               "target: -logit(self) * grad * weight (/ numel)")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        t = self._unpack(1)
        w = self._unpack(2) if self.has_weight else None
        n = self._needs
        gs = gt = None
        if n[0]:
            gs = _bce_grad_input(g, x, t, w, self.reduction, self.numel)
        if n[1]:
            gt = -((x / (1 - x)).log()) * g
            if w is not None:
                gt = gt * w
            if self.reduction == "mean":
                gt = _div_scalar(gt, self.numel)
        return (gs, gt)


class BinaryCrossEntropyBackwardBackward0(Node):
    """binary_cross_entropy_backward(grad_output, self, target, weight) as one differentiable op, with PyTorch's
    double-backward formulas (which use (x + eps)(1 - x + eps), not the clamped denominator)."""

    __slots__ = ("has_weight", "numel", "reduction")
    formula = ("grad_output: (self - target) / ((self + eps) (1 - self + eps)) * grad * weight; self: (self^2 - "
               "2 self target + target) / ((self + eps)^2 (1 - self + eps)^2) * grad * grad_output * weight; target: "
               "-grad * grad_output * weight / max((1 - self) self, eps) (each / numel for mean)")

    def apply(self, grads):
        gg = grads[0]
        go = self._unpack(0)
        x = self._unpack(1)
        t = self._unpack(2)
        w = self._unpack(3) if self.has_weight else None
        n = self._needs
        mean = self.reduction == "mean"
        ggo = gx = gt = None
        if n[0]:
            ggo = (x - t) / ((x + _EPS) * (1 - x + _EPS)) * gg
            if w is not None:
                ggo = ggo * w
            if mean:
                ggo = ggo / self.numel
        if n[1]:
            gx = (x * x - 2 * x * t + t) / ((x + _EPS).pow(2) * (1 - x + _EPS).pow(2)) * (gg * go)
            if w is not None:
                gx = gx * w
            if mean:
                gx = gx / self.numel
        if n[2]:
            gt = -gg * go
            if w is not None:
                gt = gt * w
            denom = Tensor._from_data(np.maximum((1 - x._data) * x._data, x._dtype.np.type(_EPS)), x._dtype)
            gt = gt / denom
            if mean:
                gt = gt / self.numel
        return (ggo, gx, gt)


def _bce_grad_input(go: Tensor, x: Tensor, t: Tensor, w, reduction: str, numel: int) -> Tensor:
    """grad_output * (x - t) / max((1 - x) x, 1e-12) * weight (/ numel for mean), PyTorch's CPU kernel."""
    dtype = x._dtype
    xd = x._data
    with np.errstate(all="ignore"):
        data = go._data.astype(dtype.np) * (xd - t._data.astype(dtype.np)) / np.maximum((1 - xd) * xd,
                                                                                      dtype.np.type(_KERNEL_EPS))
        if w is not None:
            data = data * w._data
        if reduction == "mean":
            data = data / dtype.np.type(numel)
    data = np.broadcast_to(np.asarray(data, dtype=dtype.np), xd.shape).copy()
    out, node = record(BinaryCrossEntropyBackwardBackward0, data, dtype, (go, x, t))
    if node is not None:
        node.reduction, node.numel, node.has_weight = reduction, numel, w is not None
        node._save(saved(go), saved(x), saved(t), saved(w) if w is not None else None)
    return out


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    """-w (t log x + (1 - t) log(1 - x)), logs clamped at -100 (BinaryCrossEntropyBackward0).

    input values must lie in [0, 1]; target must have input's size and dtype.
    """
    _need_sizes(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    if target._data.shape != input._data.shape:
        raise _runtime(f"Using a target size ({_size_str(target._data.shape)}) that is different to the input size "
                       f"({_size_str(input._data.shape)}) is deprecated. Please ensure they have the same size.",
                          torch_type=ValueError)
    if weight is not None:
        _need_tensor("binary_cross_entropy", "weight", 3, weight)
        shape = broadcast_shapes(target._data.shape, weight._data.shape)
        weight = weight.expand(shape)
    if not input._dtype.is_floating_point:
        raise _runtime(f"\"binary_cross_entropy\" not implemented for '{_TN[input._dtype.name]}'")
    if target._dtype is not input._dtype:
        raise _runtime(f"Found dtype {_TN[target._dtype.name]} but expected {_TN[input._dtype.name]}")
    x = input._data
    tt = target._data
    if np.any(~((x >= 0) & (x <= 1))):
        raise _runtime("all elements of input should be between 0 and 1", "Apply torch.sigmoid first, or use "
                       "F.binary_cross_entropy_with_logits on the raw scores.")
    if np.any(~((tt >= 0) & (tt <= 1))):
        raise _runtime("all elements of target should be between 0 and 1")
    dtype = input._dtype
    with np.errstate(all="ignore"):
        loss = (tt - 1) * np.maximum(np.log1p(-x), -100) - tt * np.maximum(np.log(x), -100)
        loss = loss.astype(dtype.np)
        if weight is not None:
            loss = (loss * weight._data).astype(dtype.np)
    shape = loss.shape
    if weight is not None and shape != x.shape:
        raise error_class("shape")(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                                   f"{list(shape)}")
    data = _reduce_np(loss, reduction, dtype)
    out, node = record(BinaryCrossEntropyBackward0, data, dtype, (input, target))
    if node is not None:
        node.reduction, node.numel, node.has_weight = reduction, x.size, weight is not None
        node._save(saved(input), saved(target), saved(weight) if weight is not None else None)
    return out


class BinaryCrossEntropyWithLogitsBackward0(Node):
    __slots__ = ("has_pos_weight", "has_weight", "numel", "reduction")
    _pack_order = (3, 0, 1, 2)  # PyTorch saves inputs by name
    formula = ("self: (sigmoid(self) - target) * grad * weight, with pos_weight: ((pw * t + 1 - t) * sigmoid(self) "
               "- pw * t) * grad * weight (/ numel for mean); target: -self * grad * weight (with pos_weight: "
               "(log_sigmoid(-self) - log_sigmoid(self) * pw) * grad * weight)")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        t = self._unpack(1)
        w = self._unpack(2) if self.has_weight else None
        pw = self._unpack(3) if self.has_pos_weight else None
        n = self._needs
        gs = gt = None
        if n[0]:
            if pw is not None:
                pt = pw * t
                gs = (pt + 1 - t) * x.sigmoid() - pt
            else:
                gs = x.sigmoid() - t
            gs = gs * g
            if w is not None:
                gs = gs * w
            if self.reduction == "mean":
                gs = _div_scalar(gs, self.numel)
        if n[1]:
            if pw is not None:
                gt = _log_sigmoid_t(-x) - _log_sigmoid_t(x) * pw
            else:
                gt = -x
            gt = gt * g
            if w is not None:
                gt = gt * w
            if self.reduction == "mean":
                gt = _div_scalar(gt, self.numel)
        return (gs, gt)


def _log_sigmoid_np(a: np.ndarray, z=None) -> np.ndarray:
    """min(a, 0) - log1p(z), z = exp(-|a|) (log_sigmoid_forward's buffer, computed here unless given)."""
    return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)) if z is None else z)


def _log_sigmoid_t(x: Any) -> Any:
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)) with gradcli ops."""
    return x.clamp(max=0) - (-(x.abs())).exp().log1p()


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None):
    """BCE on raw scores: (1 - t) x - log_sigmoid(x) (times (pos_weight - 1) t + 1 on the log-sigmoid term), in
    the stable form (BinaryCrossEntropyWithLogitsBackward0)."""
    _need_sizes(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    if target._data.shape != input._data.shape:
        raise _runtime(f"Target size ({_size_str(target._data.shape)}) must be the same as input size "
                       f"({_size_str(input._data.shape)})", torch_type=ValueError)
    if not target._dtype.is_floating_point:
        tn = _TN[dt.promote_types(target._dtype, input._dtype).name]
        raise _runtime(f"result type {tn} can't be cast to the desired output type {_TN[target._dtype.name]}")
    if not input._dtype.is_floating_point:
        raise _runtime(f"\"log_sigmoid_forward\" not implemented for '{_TN[input._dtype.name]}'")
    dtype = target._dtype
    shape = input._data.shape
    for extra in (pos_weight, weight):
        if extra is not None:
            _need_tensor("binary_cross_entropy_with_logits", "weight", 3, extra)
            bshape = broadcast_shapes(shape, extra._data.shape)
            if bshape != shape:
                raise error_class("shape")(f"output with shape {list(shape)} doesn't match the broadcast shape "
                                           f"{list(bshape)}")
    x = input._data.astype(np.float64)
    t = target._data.astype(np.float64)
    with np.errstate(all="ignore"):
        lsi = _log_sigmoid_np(x)
        if pos_weight is not None:
            lsi = lsi * ((pos_weight._data.astype(np.float64) - 1) * t + 1)
        loss = (1 - t) * x - lsi
        if weight is not None:
            loss = loss * weight._data.astype(np.float64)
    data = _reduce_np(loss.astype(dtype.np), reduction, dtype)
    out, node = record(BinaryCrossEntropyWithLogitsBackward0, data, dtype, (input, target))
    if node is not None:
        node.reduction, node.numel = reduction, input._data.size
        node.has_weight, node.has_pos_weight = weight is not None, pos_weight is not None
        node._save(saved(input), saved(target), saved(weight) if weight is not None else None,
                   saved(pos_weight) if pos_weight is not None else None)
    return out


# --- nll_loss --------------------------------------------------------------------------------------------------------------


class NllLossBackward0(Node):
    __slots__ = ("class_dim", "coef", "reduction", "total_weight")
    formula = ("self: -weight[target] * grad at (i, target[i]) (/ total weight of non-ignored targets for mean), "
               "0 elsewhere and for ignored targets")

    def apply(self, grads):
        from .misc import zero_link

        g = grads[0]
        x = self._unpack(0)
        for i in (1, 2):
            self._unpack(i)  # target and weight: version-checked, as PyTorch's apply unpacks every saved tensor
        link = "NllLoss2DBackwardBackward0" if type(self) is NllLoss2DBackward0 else "NllLossBackwardBackward0"
        coef = Tensor._from_data(self.coef, g._dtype)
        if self.reduction == "none":
            if self.coef.ndim > 1:
                g = g.unsqueeze(self.class_dim)
            return (zero_link(self._scattered(coef * g), x, link),)
        if self.reduction == "mean":
            if self.total_weight == 0:
                from .creation import zeros

                return (zero_link(zeros(self.coef.shape, dtype=g._dtype), x, link),)
            g = g / self.total_weight
        return (zero_link(self._scattered(coef * g, g), x, link),)

    def _scattered(self, r: Tensor, g: Tensor = None) -> Tensor:
        """PyTorch writes -weight * grad at the targets into zeros: elsewhere +0.0, also for a -0.0 grad (the
        product's 0 * -0.0 would be -0.0).  Off-target entries of coef are +0.0; a target with weight 0 -0.0.

        For one finite gradient value g (a reduced loss) no mask is needed: with g >= +0.0 the products off the
        targets are already +0.0, and with g < 0 or -0.0 adding +0.0 turns their -0.0 into +0.0 and changes no
        target entry (none is -0.0 then: coef <= 0 times g <= 0)."""
        if g is not None and g._data.ndim == 0 and r._data.dtype.kind == "f":
            v = float(g._data)
            if math.isfinite(v):
                if v < 0 or (v == 0 and math.copysign(1.0, v) < 0):
                    np.add(r._data, 0.0, out=r._data)
                return r
        off = (self.coef == 0) & ~np.signbit(self.coef)
        if off.any():
            r._data[np.broadcast_to(off, r._data.shape)] = 0
        return r


class NllLoss2DBackward0(NllLossBackward0):
    __slots__ = ()


def _check_target_dtype(target: Tensor) -> None:
    if target._dtype not in (dt.int64, dt.uint8):
        raise _runtime(f"expected target dtype to be Long or Byte, but got {_TN[target._dtype.name]}",
                       "Class-index targets must be integer (torch.long) tensors.")


def _nll_core(input: Tensor, target: Tensor, weight, reduction: str, ignore_index: int, node_cls) -> Tensor:
    """NLL over input (C,) with target () or (N, C, *rest) with target (N, *rest)."""
    _check_target_dtype(target)
    a = input._data
    nc = a.shape[0] if a.ndim == 1 else a.shape[1]
    if weight is not None:
        if weight._data.ndim != 1 or weight._data.shape[0] != nc:
            raise _runtime(f"weight tensor should be defined either for all {nc} classes or no classes but got "
                           f"weight tensor of shape: {list(weight._data.shape)}")
        if weight._dtype is not input._dtype:
            raise _runtime(f"expected scalar type {_TN[input._dtype.name]} but found {_TN[weight._dtype.name]}")
    t = target._data.astype(np.int64)
    if a.ndim == 1:
        a2 = a.reshape(1, nc)
        t2 = t.reshape(-1)
    else:
        a2 = np.moveaxis(a, 1, -1).reshape(-1, nc)
        t2 = t.reshape(-1)
    valid = t2 != ignore_index
    bad = t2[valid & ((t2 < 0) | (t2 >= nc))]
    if bad.size:
        raise ArgumentIndexError(f"Target {int(bad[0])} is out of bounds.")
    w = weight._data.astype(np.float64) if weight is not None else np.ones(nc)
    tv = np.where(valid, t2, 0)
    rows = np.arange(t2.shape[0])
    wi = np.where(valid, w[tv], 0.0)
    picked = a2[rows, tv].astype(np.float64) if t2.size else np.zeros(0)
    losses = -wi * picked
    losses = np.where(valid, losses, 0.0)
    dtype = input._dtype
    total_weight = float(np.sum(wi))
    if reduction == "none":
        data = losses.reshape(t.shape if a.ndim > 1 else ()).astype(dtype.np)
    elif reduction == "sum":
        data = np.asarray(np.sum(losses), dtype=dtype.np)
    else:
        with np.errstate(all="ignore"):
            data = np.asarray(np.sum(losses) / total_weight if total_weight else np.nan, dtype=dtype.np)
    out, node = record(node_cls, data, dtype, (input,))
    if node is not None:
        coef2 = np.zeros(a2.shape, dtype=dtype.np)
        if t2.size:
            coef2[rows[valid], tv[valid]] = -w[tv[valid]]
        if a.ndim == 1:
            coef = coef2.reshape(nc)
        else:
            rest = a.shape[:1] + a.shape[2:]
            coef = np.moveaxis(coef2.reshape(rest + (nc,)), -1, 1)
        node.coef = np.ascontiguousarray(coef)
        node.reduction, node.total_weight, node.class_dim = reduction, total_weight, 1
        # nll_loss_forward saves self, target and weight (version-checked: changing the target or the weight in
        # place fails the backward) and its second output total_weight (0 for reduction='none' of a batch)
        tw = Tensor._from_data(np.asarray(0.0 if reduction == "none" and a.ndim > 1 else total_weight,
                                          dtype=dtype.np), dtype)
        node._save(saved(input), saved(target), saved(weight) if weight is not None else None, _out(tw))
    return out


def _nll_nd(input: Any, target: Tensor, weight, reduction: str, ignore_index: int) -> Any:
    """at::nll_loss_nd: nll_loss for 1-d/2-d input, nll_loss2d for 4-d, a (n, c, 1, -1) view otherwise."""
    nd = input._data.ndim
    if nd < 1:
        raise _runtime(f"Expected 1 or more dimensions (got {nd})")
    if nd != 1 and target._data.ndim >= 1 and input._data.shape[0] != target._data.shape[0]:
        raise _runtime(f"Expected input batch_size ({input._data.shape[0]}) to match target batch_size "
                       f"({target._data.shape[0]}).")
    if nd != 1 and target._data.ndim == 0:
        raise _runtime(f"Expected input batch_size ({input._data.shape[0]}) to match target batch_size (1).")
    if nd <= 2:
        if target._data.ndim > 1:
            raise _runtime("0D or 1D target tensor expected, multi-target not supported")
        if nd == 1 and target._data.ndim == 1 and target._data.shape[0] != 1:
            raise error_class("shape")(f"size mismatch (got input: {list(input._data.shape)}, target: "
                                       f"{list(target._data.shape)})")
        return _nll_core(input, target, weight, reduction, ignore_index, NllLossBackward0)
    if nd == 4:
        if target._data.ndim != 3 or target._data.shape != input._data.shape[:1] + input._data.shape[2:]:
            raise error_class("shape")(f"size mismatch (got input: {list(input._data.shape)} , target: "
                                       f"{list(target._data.shape)}")
        return _nll_core(input, target, weight, reduction, ignore_index, NllLoss2DBackward0)
    n, c = input._data.shape[:2]
    out_size = (n,) + tuple(target._data.shape[1:])
    if tuple(target._data.shape[1:]) != tuple(input._data.shape[2:]):
        raise _runtime(f"Expected target size {list(out_size)}, got {list(target._data.shape)}")
    inp = input
    if input._data.size > 0:
        inp = input.view(n, c, 1, -1).contiguous()
    tgt = Tensor._from_data(np.ascontiguousarray(target._data).reshape(n, 1, -1), target._dtype)
    tgt._version = target._version  # target.reshape(n, 1, -1): a view, the same version counter
    out: Any = _nll_core(inp, tgt, weight, reduction, ignore_index, NllLoss2DBackward0)
    if reduction == "none":
        out = out.view(out_size)
    return out


def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean"):
    """Negative log likelihood of class-index targets given log-probabilities (NllLossBackward0;
    NllLoss2DBackward0 for >2-d input); ``weight`` per class, ``ignore_index`` skipped (mean divides by the
    total weight of the kept targets)."""
    _need_tensor("nll_loss", "input", 1, input)
    _need_tensor("nll_loss", "target", 2, target)
    check_int("nll_loss", "ignore_index", ignore_index)
    reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        _need_tensor("nll_loss", "weight", 3, weight)
    return _nll_nd(input, target, weight, reduction, ignore_index)


# --- cross_entropy ------------------------------------------------------------------------------------------------------------


def _weight_view(weight: Any, nd: int, class_dim: int) -> Any:
    shape = [1] * nd
    shape[class_dim] = weight._data.shape[0]
    return weight.view(tuple(shape))


def _ce_prob(input: Any, target: Any, weight, reduction: str, label_smoothing: float) -> Any:
    from .reduction import sum as _sum

    class_dim = 0 if input._data.ndim == 1 else 1
    n_classes = input._data.shape[class_dim]
    if weight is not None and (weight._data.ndim != 1 or weight._data.size != n_classes):
        raise _runtime(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                       f"classes but got weight tensor of shape: {list(weight._data.shape)}")
    logp = log_softmax(input, class_dim, input._dtype)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise _runtime(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        target = target * (1 - label_smoothing) + (label_smoothing / n_classes)
    prod = logp * target
    if weight is not None:
        prod = prod * (_weight_view(weight, input._data.ndim, class_dim) if input._data.ndim > 1 else weight)
    if reduction == "mean":
        return _div_scalar(-_sum(prod), input._data.size // n_classes if n_classes else 0)
    if reduction == "sum":
        return -_sum(prod)
    return -_sum(prod, dim=class_dim)


def _ce_label_smoothing(input: Any, target: Tensor, weight, reduction: str, ignore_index: int,
                        label_smoothing: float) -> Any:
    from .misc import gather, masked_fill
    from .reduction import sum as _sum

    class_dim = 0 if input._data.ndim == 1 else 1
    n_classes = input._data.shape[class_dim]
    logp = log_softmax(input, class_dim, input._dtype)
    nll = _nll_nd(logp, target, weight, reduction, ignore_index)
    ignore_mask = _const_bool(target._data == ignore_index)
    if weight is not None:
        smooth = -_sum(logp * _weight_view(weight, logp._data.ndim, class_dim), dim=class_dim)
    else:
        smooth = -_sum(logp, dim=class_dim)
    smooth = masked_fill(smooth, ignore_mask, 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = Tensor._from_data(target._data[target._data != ignore_index].reshape(-1).astype(np.int64),
                                     dt.int64)
            ret = _sum(smooth) / _sum(gather(weight, 0, kept))
        else:
            true_mask = Tensor._from_data(np.asarray(np.sum(target._data != ignore_index), dtype=np.int64), dt.int64)
            ret = _sum(smooth) / true_mask
    elif reduction == "sum":
        ret = _sum(smooth)
    else:
        ret = smooth
    return _mul_scalar(nll, 1 - label_smoothing) + _mul_scalar(ret, label_smoothing / n_classes)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0):
    """Cross entropy of raw scores: nll_loss(log_softmax(input, class dim), target) for class indices
    (NllLossBackward0 over LogSoftmaxBackward0); a target of input's shape is class probabilities (PyTorch's
    composite, DivBackward1 for mean); ``label_smoothing`` mixes in the uniform distribution as PyTorch does."""
    _need_tensor("cross_entropy", "input", 1, input)
    _need_tensor("cross_entropy", "target", 2, target)
    check_int("cross_entropy", "ignore_index", ignore_index)
    check_number("cross_entropy", "label_smoothing", label_smoothing)
    reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        _need_tensor("cross_entropy", "weight", 3, weight)
    if input._data.ndim == 0:
        raise _runtime("Expected 1 or more dimensions (got 0)")
    if input._data.shape == target._data.shape:
        if not target._dtype.is_floating_point:
            raise _runtime(f"Expected floating point type for target with class probabilities, got "
                           f"{_TN[target._dtype.name]}")
        if ignore_index >= 0:
            raise _runtime("ignore_index is not supported for floating point target")
        return _ce_prob(input, target, weight, reduction, label_smoothing)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise _runtime(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        return _ce_label_smoothing(input, target, weight, reduction, ignore_index, label_smoothing)
    class_dim = 0 if input._data.ndim == 1 else 1
    return _nll_nd(log_softmax(input, class_dim, input._dtype), target, weight, reduction, ignore_index)


# --- more activations (not in SPEC's table; common in tutorials) ----------------------------------------------------------


class HardtanhBackward0(Node):
    __slots__ = ("max_val", "min_val")
    formula = "self: grad where min_val < self < max_val, else 0"

    def apply(self, grads):
        from .misc import diag_link

        x = self._unpack(0)
        # PyTorch zeroes where self <= min_val or self >= max_val: a nan passes the gradient
        inside = ~((x._data <= self.min_val) | (x._data >= self.max_val))
        return (diag_link(lambda g: np.where(inside, g, 0), grads[0], x, "HardtanhBackwardBackward0"),)


def _hardtanh(input: Tensor, min_val, max_val) -> Tensor:
    from .reduction import check_out_variant

    check_out_variant(input, "hardtanh")  # PyTorch's hardtanh runs its out= kernel
    a = input._data
    # bounds first: numpy keeps the second operand of a tie, PyTorch the input's signed zero
    data = np.minimum(np.asarray(max_val, a.dtype), np.maximum(np.asarray(min_val, a.dtype), a))
    out, node = record(HardtanhBackward0, data.astype(a.dtype, copy=False), input._dtype, (input,))
    if node is not None:
        node.min_val, node.max_val = min_val, max_val
        node._save(saved(input))
    return out


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    """Clamp into [min_val, max_val] (HardtanhBackward0); the gradient is 0 at the bounds, as PyTorch."""
    _need_tensor("hardtanh", "input", 1, input)
    check_number("hardtanh", "min_val", min_val)
    check_number("hardtanh", "max_val", max_val)
    if min_val > max_val:
        raise _runtime("min_val cannot be greater than max_val", torch_type=ValueError)
    _need_float("hardtanh_cpu", input)
    if inplace:
        return _inplace(input, lambda old: _hardtanh(old, min_val, max_val))
    return _hardtanh(input, min_val, max_val)


def relu6(input, inplace: bool = False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6) (HardtanhBackward0)."""
    _need_tensor("relu6", "input", 1, input)
    return hardtanh(input, 0.0, 6.0, inplace)


class EluBackward0(Node):
    __slots__ = ("alpha", "input_scale", "scale")
    formula = ("self: grad * scale where self > 0, else grad * alpha * scale * input_scale * exp(self * input_scale); "
               "in place (EluBackward1) from the result: grad * input_scale * (result + alpha * scale) where "
               "result <= 0")
    is_result = False

    def apply(self, grads):
        return (_elu_backward(grads[0], self.alpha, self.scale, self.input_scale, self.is_result, self._unpack(0)),)


class EluBackward1(EluBackward0):
    __slots__ = ()
    is_result = True


class CeluBackward0(EluBackward0):
    __slots__ = ()


class CeluBackward1(EluBackward1):
    __slots__ = ()


class EluBackwardBackward0(Node):
    """elu_backward(grad_output, self_or_result) as one differentiable op (PyTorch's elu_double_backward)."""

    __slots__ = ("alpha", "input_scale", "is_result", "scale")
    formula = ("grad_output: elu_backward(grad, ...); self_or_result: grad * grad_output * input_scale (times "
               "elu_backward for self) where self_or_result < 0")

    def apply(self, grads):
        gg = grads[0]
        go = self._unpack(0)
        sr = self._unpack(1)
        n = self._needs
        a, sc, isc, res = self.alpha, self.scale, self.input_scale, self.is_result
        ggo = _elu_backward(gg, a, sc, isc, res, sr) if n[0] else None
        gsr = None
        if n[1]:
            neg = Tensor._from_data((sr._data < 0).astype(gg._dtype.np), gg._dtype)
            if res:
                gsr = gg * go * isc * neg
            else:
                gsr = _elu_backward(gg * go * isc, a, sc, isc, res, sr) * neg
        return (ggo, gsr)


def _elu_backward(g: Tensor, alpha, scale, input_scale, is_result: bool, sr: Tensor) -> Tensor:
    """PyTorch's elu_backward kernel (the self form uses the exponential branch where self <= 0)."""
    a = sr._data.astype(np.float64)
    gd = g._data.astype(np.float64)
    with np.errstate(all="ignore"):
        if is_result:
            d = np.where(a <= 0, gd * input_scale * (a + alpha * scale), gd * scale)
        else:
            d = np.where(a <= 0, gd * input_scale * alpha * scale * np.exp(a * input_scale), gd * scale)
    dtype = g._dtype if g._dtype.is_floating_point else sr._dtype
    out, node = record(EluBackwardBackward0, np.asarray(d, dtype=dtype.np), dtype, (g, sr))
    if node is not None:
        node.alpha, node.scale, node.input_scale, node.is_result = alpha, scale, input_scale, is_result
        node._save(saved(g), saved(sr))
    return out


def _elu(input: Tensor, alpha, scale, input_scale, node_cls, inplace: bool = False) -> Tensor:
    def fn(t: Tensor) -> Tensor:
        a = t._data.astype(np.float64)
        with np.errstate(all="ignore"):
            data = np.where(a > 0, a * scale, (np.expm1(a * input_scale)) * alpha * scale)
        cls = node_cls if not inplace else (EluBackward1 if node_cls is EluBackward0 else CeluBackward1)
        out, node = record(cls, data.astype(t._dtype.np), t._dtype, (t,))
        if node is not None:
            node.alpha, node.scale, node.input_scale = alpha, scale, input_scale
            node._save(_out(out) if inplace else saved(t))
        return out

    return _inplace(input, fn) if inplace else fn(input)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    """x if x > 0 else alpha * (exp(x) - 1) (EluBackward0)."""
    _need_tensor("elu", "input", 1, input)
    check_number("elu", "alpha", alpha)
    _need_float("elu_cpu", input)
    return _elu(input, alpha, 1.0, 1.0, EluBackward0, inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace: bool = False):
    """scale * elu(x, alpha) with SELU's constants (EluBackward0)."""
    _need_tensor("selu", "input", 1, input)
    _need_float("elu_cpu", input)
    return _elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0, EluBackward0, inplace)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (CeluBackward0)."""
    _need_tensor("celu", "input", 1, input)
    check_number("celu", "alpha", alpha)
    if alpha == 0:
        raise _runtime("ZeroDivisionError")
    _need_float("elu_cpu", input)
    return _elu(input, alpha, 1.0, 1.0 / alpha, CeluBackward0, inplace)


class LogSigmoidBackward0(Node):
    """log_sigmoid_backward(grad, self, buffer): buffer = exp(-|self|) is the forward's (log_sigmoid_forward's
    second output), so a change of self's values that autograd does not see (through ``.data``) moves only the
    sign the kernel reads from self, as in PyTorch."""

    __slots__ = ("buffer",)
    formula = "self: grad * (max_deriv - sign * buffer / (1 + buffer)), buffer = exp(-|self|) from the forward"

    def apply(self, grads):
        return (_log_sigmoid_backward(grads[0], self._unpack(0), self.buffer),)


class LogSigmoidBackwardBackward0(Node):
    """log_sigmoid_backward(grad_output, self, buffer) as one differentiable op."""

    __slots__ = ("buffer",)
    formula = ("grad_output: log_sigmoid_backward(grad, self, buffer); self: grad * grad_output * (sigmoid(self) - 1) "
               "* sigmoid(self)")

    def apply(self, grads):
        gg = grads[0]
        go = self._unpack(0)
        x = self._unpack(1)
        n = self._needs
        ggo = _log_sigmoid_backward(gg, x, self.buffer) if n[0] else None
        gx = None
        if n[1]:
            z = x.sigmoid()
            gx = gg * go * (z - 1) * z
        return (ggo, gx)


def _log_sigmoid_backward(g: Tensor, x: Tensor, z: np.ndarray) -> Tensor:
    """grad * (max_deriv - sign * z / (1 + z)) with max_deriv, sign from x < 0 and z the forward's buffer
    exp(-|x|) (float64 here), PyTorch's log_sigmoid_backward CPU kernel (= grad * sigmoid(-x) while x is as it
    was)."""
    a = x._data
    d = g._data.astype(np.float64) * np.where(a < 0, 1 - z / (1 + z), z / (1 + z))
    out, node = record(LogSigmoidBackwardBackward0, d.astype(x._dtype.np), x._dtype, (g, x))
    if node is not None:
        node._save(saved(g), saved(x))
        node.buffer = z
    return out


def logsigmoid(input):
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)) (LogSigmoidBackward0)."""
    _need_tensor("log_sigmoid", "input", 1, input)  # F.logsigmoid is torch._C._nn.log_sigmoid
    _need_float("log_sigmoid_forward", input)
    a = input._data.astype(np.float64)
    z = np.exp(-np.abs(a))  # log_sigmoid_forward's buffer
    data = _log_sigmoid_np(a, z).astype(input._dtype.np)
    out, node = record(LogSigmoidBackward0, data, input._dtype, (input,))
    if node is not None:
        # the buffer is saved too (an output without history: what saved-tensor hooks see)
        node._save(saved(input), _out(Tensor._from_data(z.astype(input._dtype.np), input._dtype)))
        node.buffer = z
    return out


class MishBackward0(Node):
    __slots__ = ()
    formula = "self: grad * (tanh(softplus(self)) + self * sigmoid(self) * (1 - tanh(softplus(self))^2))"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        sig = x.sigmoid()
        tsp = softplus(x).tanh()
        return (g * (tsp + x * sig * (1 - tsp * tsp)),)


def mish(input, inplace: bool = False):
    """x * tanh(softplus(x)) (MishBackward0)."""
    _need_tensor("mish", "input", 1, input)
    _need_float("mish_cpu", input)

    def fn(t: Tensor) -> Tensor:
        a = t._data.astype(np.float64)
        with np.errstate(all="ignore"):
            data = a * np.tanh(np.where(a > 20, a, np.log1p(np.exp(a))))
        out, node = record(MishBackward0, data.astype(t._dtype.np), t._dtype, (t,))
        if node is not None:
            node._save(saved(t))
        return out

    return _inplace(input, fn) if inplace else fn(input)


class HardsigmoidBackward0(Node):
    __slots__ = ()
    formula = "self: grad / 6 where -3 < self < 3, else 0"

    def apply(self, grads):
        from .elementwise import record_not_implemented

        g = grads[0]
        x = self._unpack(0)
        inside = (x._data > -3) & (x._data < 3)
        # grad * one_sixth with PyTorch's constant 1.0f / 6.0f, a float even for double tensors
        data = np.where(inside, g._data * g._dtype.np.type(np.float32(1.0) / np.float32(6.0)), 0).astype(g._dtype.np)
        # PyTorch has no derivative for hardsigmoid_backward: a second backward through it fails
        out, _ = record_not_implemented("aten::hardsigmoid_backward", data, g._dtype, (g, x))
        return (out,)


def hardsigmoid(input, inplace: bool = False):
    """relu6(x + 3) / 6 (HardsigmoidBackward0)."""
    _need_tensor("hardsigmoid", "input", 1, input)
    _need_float("hardsigmoid_cpu", input)

    def fn(t: Tensor) -> Tensor:
        a = t._data
        data = (np.minimum(np.maximum(a + 3, 0), 6) / 6).astype(a.dtype)
        out, node = record(HardsigmoidBackward0, data, t._dtype, (t,))
        if node is not None:
            node._save(saved(t))
        return out

    return _inplace(input, fn) if inplace else fn(input)


class HardswishBackward0(Node):
    __slots__ = ()
    formula = "self: 0 where self <= -3, grad * (self / 3 + 0.5) where self < 3, else grad"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        low = _const_bool(x._data <= -3)
        mid = _const_bool(x._data < 3)
        return (_rename(_where(low, 0.0, _where(mid, g * (x / 3 + 0.5), g)), "HardswishBackwardBackward0"),)


def hardswish(input, inplace: bool = False):
    """x * relu6(x + 3) / 6 (HardswishBackward0)."""
    _need_tensor("hardswish", "input", 1, input)
    _need_float("hardswish_cpu", input)

    def fn(t: Tensor) -> Tensor:
        a = t._data
        data = (a * np.minimum(np.maximum(a + 3, 0), 6) / 6).astype(a.dtype)
        out, node = record(HardswishBackward0, data, t._dtype, (t,))
        if node is not None:
            node._save(saved(t))
        return out

    return _inplace(input, fn) if inplace else fn(input)


def softsign(input):
    """x / (1 + |x|), PyTorch's composite (DivBackward0)."""
    _python_attr(input, "abs")
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x), PyTorch's composite (SubBackward0)."""
    _python_attr(input, "tanh")
    return input - input.tanh()


def softmin(input, dim=None, _stacklevel: int = 3, dtype=None):
    """softmax(-x) (SoftmaxBackward0 over NegBackward0); dim=None warns as F.softmax.  A non-tensor fails where
    PyTorch's Python code does: ``input.dim()`` (dim=None), ``-input`` (TypeError: bad operand type for unary -),
    or ``(-number).softmax`` (AttributeError)."""
    if not isinstance(input, Tensor):
        if dim is None:
            _python_attr(input, "dim")
        if not isinstance(input, (int, float)):  # bool is an int; -True == -1
            from ..data.protocol import type_name

            raise ArgumentTypeError(f"bad operand type for unary -: '{type_name(input)}'")
        _python_attr(-input, "softmax")
    if dim is None:
        dim = _implicit_dim("softmin", input._data.ndim)
    if dtype is None:
        return _softmax_impl(-input, dim, None, False)
    return _softmax_impl(-(input.to(dtype)), dim, None, False)


def normalize(input, p=2.0, dim: int = 1, eps: float = 1e-12, out=None):
    """input / max(||input||_p over dim, eps) (PyTorch's composite: DivBackward0 over ExpandBackward0 over
    ClampMinBackward0 over LinalgVectorNormBackward0)."""
    _need_tensor("normalize", "input", 1, input)
    if out is not None:
        raise error_class("unsupported")("normalize(out=...) is not supported by gradcli")
    check_number("normalize", "eps", eps)
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def one_hot(tensor, num_classes: int = -1):
    """int64 one-hot encoding of class indices (not differentiable)."""
    _need_tensor("one_hot", "tensor", 1, tensor)
    check_int("one_hot", "num_classes", num_classes)
    if tensor._dtype is not dt.int64:
        raise _runtime("one_hot is only applicable to index tensor of type LongTensor.")
    t = tensor._data
    if num_classes == -1:
        if t.size == 0:
            raise _runtime("Can not infer total number of classes from empty tensor.")
        num_classes = int(t.max()) + 1
    if t.size and t.min() < 0:
        raise _runtime("Class values must be non-negative.")
    if t.size and t.max() >= num_classes:
        raise _runtime("Class values must be smaller than num_classes.")
    from ._core import check_numel

    check_numel(t.size * num_classes)
    data = (t[..., None] == np.arange(num_classes)).astype(np.int64)
    return Tensor._from_data(data, dt.int64)


# --- registration ----------------------------------------------------------------------------------------------------------------


def _f64(*shape, lo=-1.0, hi=1.0, seed=0, requires_grad=True):
    from .creation import tensor

    rng = np.random.default_rng(seed + 17 * len(shape) + sum(shape))
    return tensor(rng.uniform(lo, hi, size=shape).tolist(), dtype=dt.float64, requires_grad=requires_grad)


def _long(values):
    return Tensor._from_data(np.asarray(values, dtype=np.int64), dt.int64)


def _add_f_name(op_name: str, f_name: str) -> None:
    """Expose an existing op under F. as well (no second registry entry for a pure alias)."""
    op = REGISTRY.get(op_name)
    if op is not None and f_name not in op.F:
        op.F = tuple(op.F) + (f_name,)




def f_tanh(input):
    """F.tanh: PyTorch's Python ``input.tanh()`` (TanhBackward0), so a non-tensor is Python's AttributeError."""
    _python_attr(input, "tanh")
    return input.tanh()


def f_sigmoid(input):
    """F.sigmoid: PyTorch's Python ``input.sigmoid()`` (SigmoidBackward0), so a non-tensor is an AttributeError."""
    _python_attr(input, "sigmoid")
    return input.sigmoid()


register("F.tanh", f_tanh, "nn", torch=(), F=("tanh",), methods=(), nodes=("TanhBackward0",),
         formula=REGISTRY["tanh"].formula, notes="input.tanh()", sample=lambda: ((_f64(2, 3),), {}))
register("F.sigmoid", f_sigmoid, "nn", torch=(), F=("sigmoid",), methods=(), nodes=("SigmoidBackward0",),
         formula=REGISTRY["sigmoid"].formula, notes="input.sigmoid()", sample=lambda: ((_f64(2, 3),), {}))

register("F.relu", relu, "nn", torch=(), F=("relu",), methods=(), nodes=("ReluBackward0",),
         formula="self: grad * (result > 0)", notes="the torch.relu op, with inplace=",
         sample=lambda: ((_f64(2, 3),), {}))
if "relu_" in REGISTRY:
    _add_f_name("relu_", "relu_")
else:
    register("relu_", relu_, "nn", torch=("relu_",), F=("relu_",), methods=("relu_",), nodes=("ReluBackward0",),
             formula="self: grad * (result > 0)")
register("leaky_relu", leaky_relu, "nn", torch=(), F=("leaky_relu",), methods=(),
         nodes=("LeakyReluBackward0", "LeakyReluBackward1"), formula=LeakyReluBackward0.formula,
         sample=lambda: ((_f64(2, 3), 0.2), {}))
register("gelu", gelu, "nn", torch=(), F=("gelu",), methods=(), nodes=("GeluBackward0",),
         formula=GeluBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-3, hi=3),), {"approximate": "tanh"}))
register("softplus", softplus, "nn", torch=(), F=("softplus",), methods=(), nodes=("SoftplusBackward0",),
         formula=SoftplusBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-3, hi=3),), {"beta": 2.0}))
register("silu", silu, "nn", torch=(), F=("silu",), methods=(), nodes=("SiluBackward0",),
         formula=SiluBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-3, hi=3),), {}))
register("softmax", softmax, "nn", torch=("softmax",), methods=("softmax",), nodes=("SoftmaxBackward0",),
         formula=SoftmaxBackward0.formula, sample=lambda: ((_f64(2, 3), 1), {}))
register("log_softmax", log_softmax, "nn", torch=("log_softmax",), methods=("log_softmax",),
         nodes=("LogSoftmaxBackward0",), formula=LogSoftmaxBackward0.formula, sample=lambda: ((_f64(2, 3), 0), {}))
register("F.softmax", f_softmax, "nn", torch=(), F=("softmax",), methods=(), nodes=("SoftmaxBackward0",),
         formula=SoftmaxBackward0.formula, notes="dim=None warns and uses PyTorch's implicit dim",
         sample=lambda: ((_f64(3, 2),), {"dim": 0}))
register("F.log_softmax", f_log_softmax, "nn", torch=(), F=("log_softmax",), methods=(),
         nodes=("LogSoftmaxBackward0",), formula=LogSoftmaxBackward0.formula,
         notes="dim=None warns and uses PyTorch's implicit dim", sample=lambda: ((_f64(3, 2),), {"dim": 1}))
register("smooth_l1_loss", smooth_l1_loss, "nn", torch=(), F=("smooth_l1_loss",), methods=(),
         nodes=("SmoothL1LossBackward0",), formula=SmoothL1LossBackward0.formula,
         sample=lambda: ((_f64(3, 4, lo=-2.0, hi=2.0), _f64(3, 4, seed=1)), {"beta": 0.5}))
register("huber_loss", huber_loss, "nn", torch=(), F=("huber_loss",), methods=(),
         nodes=("HuberLossBackward0",), formula=HuberLossBackward0.formula,
         sample=lambda: ((_f64(3, 4, lo=-2.0, hi=2.0), _f64(3, 4, seed=1)), {"delta": 0.7, "reduction": "sum"}))
register("xlogy", xlogy, "nn", torch=("xlogy",), methods=("xlogy",),
         nodes=("XlogyBackward0", "XlogyBackward1", "XlogyBackward2"),
         formula=XlogyBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=0.2, hi=2.0), _f64(2, 3, lo=0.5, hi=2.0, seed=1)), {}))
register("kl_div", kl_div, "nn", torch=(), F=("kl_div",), methods=(), nodes=("SumBackward0", "MeanBackward0"),
         formula="exp(target) (target - input) or xlogy(target, target) - target input, then the reduction",
         sample=lambda: ((_f64(2, 3), _f64(2, 3, lo=0.2, hi=1.0, seed=1)), {"reduction": "sum"}))
register("mse_loss", mse_loss, "nn", torch=(), F=("mse_loss",), methods=(), nodes=("MseLossBackward0",),
         formula=MseLossBackward0.formula, sample=lambda: ((_f64(2, 3), _f64(2, 3, seed=1)), {}))
register("l1_loss", l1_loss, "nn", torch=(), F=("l1_loss",), methods=(),
         nodes=("MeanBackward0", "SumBackward0", "AbsBackward0", "SubBackward0"),
         formula="(input - target).abs() then mean/sum", sample=lambda: ((_f64(2, 3), _f64(2, 3, seed=1)), {}))
register("binary_cross_entropy", binary_cross_entropy, "nn", torch=(), F=("binary_cross_entropy",), methods=(),
         nodes=("BinaryCrossEntropyBackward0",), formula=BinaryCrossEntropyBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=0.1, hi=0.9), _f64(2, 3, lo=0.0, hi=1.0, seed=1)), {"reduction": "sum"}))
register("binary_cross_entropy_with_logits", binary_cross_entropy_with_logits, "nn", torch=(),
         F=("binary_cross_entropy_with_logits",), methods=(), nodes=("BinaryCrossEntropyWithLogitsBackward0",),
         formula=BinaryCrossEntropyWithLogitsBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=-3, hi=3), _f64(2, 3, lo=0.0, hi=1.0, seed=1)),
                         {"pos_weight": _f64(3, lo=0.5, hi=2.0, seed=2, requires_grad=False)}))
register("nll_loss", nll_loss, "nn", torch=(), F=("nll_loss",), methods=(),
         nodes=("NllLossBackward0", "NllLoss2DBackward0"), formula=NllLossBackward0.formula,
         sample=lambda: ((_f64(3, 4), _long([0, 3, 1])), {"weight": _f64(4, lo=0.5, hi=2.0, requires_grad=False)}))
register("cross_entropy", cross_entropy, "nn", torch=(), F=("cross_entropy",), methods=(),
         nodes=("NllLossBackward0", "LogSoftmaxBackward0", "DivBackward1", "AddBackward0", "MulBackward1"),
         formula="nll_loss(log_softmax(input, class_dim), target); probabilities: -(log_softmax * target).sum()/N",
         sample=lambda: ((_f64(3, 4), _long([0, 3, 1])), {"label_smoothing": 0.1}))

register("hardtanh", hardtanh, "nn", torch=(), F=("hardtanh",), methods=(), nodes=("HardtanhBackward0",),
         formula=HardtanhBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-2, hi=2),), {"min_val": -0.5}))
register("relu6", relu6, "nn", torch=(), F=("relu6",), methods=(), nodes=("HardtanhBackward0",),
         formula=HardtanhBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-2, hi=8),), {}))
register("elu", elu, "nn", torch=(), F=("elu",), methods=(), nodes=("EluBackward0", "EluBackward1"),
         formula=EluBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=-2, hi=2),), {"alpha": 0.7}))
register("selu", selu, "nn", torch=("selu",), F=("selu",), methods=(), nodes=("EluBackward0",),
         formula=EluBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-2, hi=2),), {}))
register("celu", celu, "nn", torch=("celu",), F=("celu",), methods=(), nodes=("CeluBackward0", "CeluBackward1"),
         formula=EluBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-2, hi=2),), {"alpha": 1.5}))
register("logsigmoid", logsigmoid, "nn", torch=(), F=("logsigmoid",), methods=(), nodes=("LogSigmoidBackward0",),
         formula=LogSigmoidBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-3, hi=3),), {}))
register("mish", mish, "nn", torch=(), F=("mish",), methods=(), nodes=("MishBackward0",),
         formula=MishBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-3, hi=3),), {}))
register("hardsigmoid", hardsigmoid, "nn", torch=(), F=("hardsigmoid",), methods=(), nodes=("HardsigmoidBackward0",),
         formula=HardsigmoidBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-4, hi=4),), {}),
         twice_differentiable=False, notes="PyTorch has no second derivative (NotImplemented)")
register("hardswish", hardswish, "nn", torch=(), F=("hardswish",), methods=(), nodes=("HardswishBackward0",),
         formula=HardswishBackward0.formula, sample=lambda: ((_f64(2, 3, lo=-4, hi=4),), {}))
register("softsign", softsign, "nn", torch=(), F=("softsign",), methods=(), nodes=("DivBackward0",),
         formula="x / (1 + |x|)", sample=lambda: ((_f64(2, 3),), {}))
register("tanhshrink", tanhshrink, "nn", torch=(), F=("tanhshrink",), methods=(), nodes=("SubBackward0",),
         formula="x - tanh(x)", sample=lambda: ((_f64(2, 3),), {}))
register("softmin", softmin, "nn", torch=(), F=("softmin",), methods=(), nodes=("SoftmaxBackward0",),
         formula="softmax(-x)", sample=lambda: ((_f64(2, 3),), {"dim": 1}))
register("normalize", normalize, "nn", torch=(), F=("normalize",), methods=(),
         nodes=("DivBackward0", "ExpandBackward0", "ClampMinBackward0", "LinalgVectorNormBackward0"),
         formula="input / norm(input, p, dim, keepdim=True).clamp_min(eps)", sample=lambda: ((_f64(2, 3),), {}))
register("one_hot", one_hot, "nn", torch=(), F=("one_hot",), methods=(), formula="")
