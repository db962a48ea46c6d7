"""multi_margin_loss and multilabel_margin_loss: PyTorch 2.13's CPU kernels, in their arithmetic order.

aten/src/ATen/native/LossMultiMargin.cpp and LossMultiLabelMargin.cpp compute each frame's sum in a fixed
order and precision, and their backward kernels accumulate the gradient term by term; both are reproduced
here (float32 sums where the kernel's are ``scalar_t``, float64 where they are ``acc_type``), so values and
gradients round as PyTorch's.  Neither backward has a derivative (derivatives.yaml): under
``create_graph`` the gradient hangs off a NotImplemented node whose backward fails as PyTorch's does.

* multi_margin_loss (MultiMarginLossBackward0): per frame ``sum_{d != y} max(0, margin - x[y] + x[d])^p
  * w[y] / dim``;
* multilabel_margin_loss (MultilabelMarginLossBackward0): per frame ``sum_{j in targets, d not a target}
  max(0, 1 - x[j] + x[d]) / dim``, the targets read up to the first -1.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..errors import ArgumentTypeError
from ._core import Node, Tensor, dt, record, saved
from .elementwise import record_not_implemented
from .nn import _TN, _need_tensor, _reduction, _runtime
from .registry import register

__all__ = ["multi_margin_loss", "multilabel_margin_loss"]


def _sizes(t: Tensor) -> str:
    return "[" + ", ".join(str(n) for n in t._data.shape) + "]"


def _frames(input: Tensor) -> tuple[int, int]:
    """nframe, dim of the shape checks (a 0-d input is one frame of one class)."""
    nd = input._data.ndim
    valid = (nd == 2 and input._data.shape[1] != 0) or (nd == 1 and input._data.shape[0] != 0) or nd == 0
    if not valid:
        raise _runtime(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                       f"{_sizes(input)}")
    if nd <= 1:
        return 1, 1 if nd == 0 else input._data.shape[0]
    return input._data.shape[0], input._data.shape[1]


def _need_float(kernel: str, input: Tensor) -> None:
    if not input._dtype.is_floating_point or input._dtype.name == "float16":
        raise _runtime(f"\"{kernel}\" not implemented for '{_TN[input._dtype.name]}'", torch_type=NotImplementedError)


def _need_long(target: Tensor) -> None:
    if target._dtype is not dt.int64:
        raise _runtime(f"expected scalar type Long but found {_TN[target._dtype.name]}")


def _gradient_node(op: str, data: np.ndarray, dtype, inputs: tuple) -> Tensor:
    """A backward kernel's result: under create_graph a NotImplemented node (no derivative formula)."""
    out, _ = record_not_implemented(op, data, dtype, inputs)
    return out


# --- multi_margin_loss ---------------------------------------------------------------------------------------------


def _mm_terms(x: np.ndarray, y: np.ndarray, margin, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """z = margin - x[y] + x[d] (scalar_t), and where it counts (z > 0, d != y)."""
    rows = np.arange(x.shape[0])
    xt = x[rows, y]
    z = (margin - xt)[:, None] + x
    counted = z > 0
    counted[rows, y] = False
    return z, counted


class MultiMarginLossBackward0(Node):
    __slots__ = ("dim", "has_weight", "margin", "nframe", "p", "reduction", "shape")
    formula = ("self: for d != y where z = margin - x[y] + x[d] > 0: h = g (p=1) or 2 g z (p=2), times w[y]; "
               "grad[d] = h, grad[y] = -sum h; g = 1/dim (1/(nframe dim) for mean); times grad")

    def apply(self, grads):
        go = grads[0]
        x = self._unpack(0)
        y = self._unpack(1)
        w = self._unpack(2) if self.has_weight else None
        np_t = x._dtype.np
        a = x._data.reshape(self.nframe, self.dim)
        tgt = y._data.reshape(self.nframe)
        margin = np_t.type(self.margin)
        g = np_t.type(1.0 / (self.nframe * self.dim) if self.reduction == "mean" else 1.0 / self.dim)
        z, counted = _mm_terms(a, tgt, margin, self.dim)
        h = np.full_like(a, g) if self.p == 1 else (np_t.type(2) * g) * z
        if w is not None:
            h = h * w._data[tgt][:, None]
        gi = np.where(counted, h, np_t.type(0))
        target_grad = np.zeros(self.nframe, dtype=np_t)
        for d in range(self.dim):  # grad_input_target -= h, in the kernel's order
            target_grad = target_grad - gi[:, d]
        gi[np.arange(self.nframe), tgt] = target_grad
        gd = go._data
        if self.reduction != "none" or gd.ndim == 0:
            gi = gi * gd.reshape(()).astype(np_t)
        else:
            gi = gi * gd.reshape(self.nframe, 1).astype(np_t)
        return (_gradient_node("multi_margin_loss_backward", gi.reshape(self.shape), x._dtype, (go, x)),)


def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight: Optional[Tensor] = None,
                      size_average=None, reduce=None, reduction: str = "mean"):
    """The multi-class hinge loss of LossMultiMargin.cpp (MultiMarginLossBackward0)."""
    _need_tensor("multi_margin_loss", "input", 1, input)
    _need_tensor("multi_margin_loss", "target", 2, target)
    reduction = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise _runtime("only p == 1 and p == 2 supported", torch_type=ValueError)
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise ArgumentTypeError(f"multi_margin_loss(): argument 'weight' must be Tensor, not "
                                    f"{type(weight).__name__}")
        if weight.dim() != 1:
            raise _runtime("weight must be one-dimensional", torch_type=ValueError)
    nframe, dim = _frames(input)
    if not (target._data.ndim <= 1 and target._data.size == nframe):
        raise _runtime("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                       f"samples (batch size). Expected target size [{nframe}], but got {_sizes(target)}. Input has "
                       f"shape {_sizes(input)}.")
    _need_float("multi_margin_loss_cpu_kernel", input)
    _need_long(target)
    np_t = input._dtype.np
    a = input._data.reshape(nframe, dim)
    tgt = target._data.reshape(nframe)
    if ((tgt < 0) | (tgt >= dim)).any():
        raise _runtime("target out of range")
    m = np_t.type(margin)
    z, counted = _mm_terms(a, tgt, m, dim)
    h = z if p == 1 else z * z
    if weight is not None:
        h = h * weight._data.astype(np_t)[tgt][:, None]
    h = np.where(counted, h, np_t.type(0))
    sums = np.zeros(nframe, dtype=np_t)
    for d in range(dim):  # scalar_t sum over d, in order
        sums = sums + h[:, d]
    sums = sums / np_t.type(dim)
    if reduction == "none" and target._data.ndim > 0:
        data = sums
    else:
        total = float(np.cumsum(sums.astype(np.float64))[-1]) if nframe else 0.0  # acc_type sum, in order
        if reduction == "mean":
            total /= nframe
        data = np.asarray(total, dtype=np_t)
    inputs = (input, target) if weight is None else (input, target, weight)
    out, node = record(MultiMarginLossBackward0, data, input._dtype, (input,))
    if node is not None:
        node.p, node.margin, node.reduction = p, margin, reduction
        node.nframe, node.dim, node.shape, node.has_weight = nframe, dim, input._data.shape, weight is not None
        node._save(*(saved(t) for t in inputs))
    return out


# --- multilabel_margin_loss ----------------------------------------------------------------------------------------


def _is_target(tgt: np.ndarray, np_t) -> np.ndarray:
    """1 at each frame's target classes (read up to the first -1), as the kernel's is_target."""
    nframe, dim = tgt.shape
    is_t = np.zeros((nframe, dim), dtype=np_t)
    for f in range(nframe):
        for j in tgt[f]:
            if j < 0:
                break
            is_t[f, j] = 1
    return is_t


def _mlm_frame_sums(a: np.ndarray, tgt: np.ndarray, is_t: np.ndarray) -> np.ndarray:
    """Each frame's acc_type sum of max(0, 1 - x[j] + x[d]) (d not a target), rounded to scalar_t."""
    np_t = a.dtype.type
    nframe, dim = a.shape
    sums = np.zeros(nframe, dtype=np.float64)
    for f in range(nframe):
        s = 0.0
        free = is_t[f] == 0
        for j in tgt[f]:
            if j < 0:
                break
            z = (np_t(1) - a[f, j]) + a[f]
            s += float(np.sum(np.where(free & (z > 0), z, np_t(0)).astype(np.float64)))
        sums[f] = s
    return sums


class MultilabelMarginLossBackward0(Node):
    __slots__ = ("dim", "nframe", "reduction", "shape")
    formula = ("self: for each target j and non-target d with 1 - x[j] + x[d] > 0: grad[j] -= g, grad[d] += g; "
               "g = 1/dim (1/(nframe dim) for mean); times grad")

    def apply(self, grads):
        go = grads[0]
        x = self._unpack(0)
        y = self._unpack(1)
        is_t = self._unpack(2)
        np_t = x._dtype.np
        a = x._data.reshape(self.nframe, self.dim)
        tgt = y._data.reshape(self.nframe, self.dim)
        free = is_t._data.reshape(self.nframe, self.dim) == 0
        g = np_t.type(1.0 / (self.nframe * self.dim) if self.reduction == "mean" else 1.0 / self.dim)
        gi = np.zeros((self.nframe, self.dim), dtype=np_t)
        for f in range(self.nframe):  # the kernel's term-by-term accumulation
            row = gi[f]
            for j in tgt[f]:
                if j < 0:
                    break
                z = (np_t.type(1) - a[f, j]) + a[f]
                hit = free[f] & (z > 0)
                for _ in range(int(hit.sum())):
                    row[j] = row[j] - g
                row[hit] = row[hit] + g
        gd = go._data
        if self.reduction != "none" or gd.ndim == 0:
            gi = gi * gd.reshape(()).astype(np_t)
        else:
            gi = gi * gd.reshape(self.nframe, 1).astype(np_t)
        return (_gradient_node("multilabel_margin_loss_backward", gi.reshape(self.shape), x._dtype, (go, x)),)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """The multi-label hinge loss of LossMultiLabelMargin.cpp (MultilabelMarginLossBackward0)."""
    _need_tensor("multilabel_margin_loss", "input", 1, input)
    _need_tensor("multilabel_margin_loss", "target", 2, target)
    reduction = _reduction(reduction, size_average, reduce)
    nframe, dim = _frames(input)
    nd = input._data.ndim
    ts = target._data.shape
    if nd <= 1:
        ok = target._data.ndim <= 1 and target._data.size == dim
    else:
        ok = target._data.ndim == 2 and ts[0] == nframe and ts[1] == dim
    if not ok:
        raise _runtime(f"inconsistent target size: {_sizes(target)} for input of size: {_sizes(input)}")
    _need_long(target)
    tgt = target._data.reshape(nframe, dim)
    if tgt.size and (tgt.min() < -1 or tgt.max() >= dim):
        raise _runtime("argument #2 'target' is out of range")
    _need_float("multilabel_margin_loss_forward_out_frame", input)
    np_t = input._dtype.np
    a = input._data.reshape(nframe, dim)
    is_t = _is_target(tgt, np_t)
    sums = _mlm_frame_sums(a, tgt, is_t).astype(np_t)  # each frame's sum returned as scalar_t
    if reduction == "none" and target._data.ndim > 1:
        data = sums / np_t.type(dim)
    else:
        total = (float(np.cumsum(sums.astype(np.float64))[-1]) if nframe else 0.0) / dim
        if reduction == "mean":
            total /= nframe
        data = np.asarray(total, dtype=np_t)
    out, node = record(MultilabelMarginLossBackward0, data, input._dtype, (input,))
    if node is not None:
        node.reduction, node.nframe, node.dim, node.shape = reduction, nframe, dim, input._data.shape
        node._save(saved(input), saved(target), saved(Tensor._from_data(is_t.reshape(ts), input._dtype)))
    return out


def _f64(*shape: int, seed: int = 0) -> Tensor:
    from .creation import tensor

    rng = np.random.default_rng(seed + 17 * len(shape) + sum(shape))
    return tensor(rng.uniform(-1.0, 1.0, size=shape).tolist(), dtype=dt.float64, requires_grad=True)


def _long(values: Any) -> Tensor:
    from .creation import tensor

    return tensor(values, dtype=dt.int64)


register("multi_margin_loss", multi_margin_loss, "nn", torch=(), F=("multi_margin_loss",), methods=(),
         nodes=("MultiMarginLossBackward0",), formula=MultiMarginLossBackward0.formula,
         sample=lambda: ((_f64(3, 4), _long([0, 1, 3])), {"p": 2, "margin": 1.5}), twice_differentiable=False)
register("multilabel_margin_loss", multilabel_margin_loss, "nn", torch=(), F=("multilabel_margin_loss",),
         methods=(), nodes=("MultilabelMarginLossBackward0",), formula=MultilabelMarginLossBackward0.formula,
         sample=lambda: ((_f64(3, 4), _long([[3, 0, -1, 1], [1, -1, 0, 0], [0, 1, 2, 3]])), {}),
         twice_differentiable=False)
