"""Pooling: ``F.max_pool2d`` / ``F.max_pool1d`` (with ``return_indices``) and ``F.avg_pool2d``.

As ATen's CPU kernels of PyTorch 2.13 (aten/src/ATen/native/DilatedMaxPool2d.cpp, AveragePool2d.cpp,
MaxPooling.cpp, Pool.h, cpu/MaxPoolKernel.cpp, cpu/AvgPoolKernel.cpp):

* output sizes are ``pooling_output_shape`` (floor or ``ceil_mode``, where the last window must start inside
  the input or its left padding); the argument checks run in PyTorch's order with its messages
  ("stride should not be zero", "pad should be at most half of effective kernel size ...", "Given input
  size: (3x5x5). Calculated output size: (3x0x0). Output size is too small" ...);
* max pooling scans each window row by row over the positions inside the input (padding is never a
  candidate) and keeps the first maximum, or the last NaN (``val > max || isnan(val)``); ``indices`` are
  flat positions in the input plane (h * W + w).  MaxPool2DWithIndicesBackward0 adds each output's gradient
  to its index, in output order.  ``max_pool1d`` is PyTorch's composite for autograd: ``unsqueeze(-2)``,
  the 2-d kernel with a (1, k) window, ``squeeze(-2)`` (UnsqueezeBackward0 / SqueezeBackward1 around the
  node), after the 1-d checks and messages;
* average pooling sums each window in the input's dtype in scan order and divides by the window's size
  (with the padding when ``count_include_pad``, else only the positions inside the input) or by
  ``divisor_override``: PyTorch's float32 sums, bit for bit.  AvgPool2DBackward0 spreads
  ``grad / divisor`` over each window in output order.

Unbatched (C, H, W) inputs are pooled as PyTorch pools them, without a batch dim.  Every value here is
exact or summed in PyTorch's order, so float32 results match PyTorch's bits.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..errors import ArgumentTypeError, error_class
from ..errors import python_errors
from ._core import Node, Tensor, check_numel, dt, record, saved
from .registry import register

__all__ = ["max_pool1d", "max_pool2d", "avg_pool2d", "max_pool2d_with_indices"]


def _runtime(msg: str) -> Exception:
    return error_class("runtime")(msg)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _ints(fn: str, name: str, pos: int, v: Any) -> list:
    if _is_int(v):
        return [int(v)]
    if isinstance(v, (list, tuple)) and all(_is_int(e) for e in v):
        return [int(e) for e in v]
    raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be tuple of ints, not "
                            f"{type(v).__name__}")


def _bool(fn: str, name: str, pos: int, v: Any) -> bool:
    """PyTorch's argument parser for a ``bool`` argument."""
    if not isinstance(v, bool):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be bool, not {type(v).__name__}")
    return v


def _div_rtn(a: int, b: int) -> int:
    q = a // b  # Python floors; div_rtn rounds toward negative infinity too
    return q


def _output_size(size: int, k: int, pad: int, stride: int, dilation: int, ceil_mode: bool) -> int:
    if stride == 0:
        raise _runtime("stride should not be zero")
    if pad < 0:
        raise _runtime(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((k - 1) * dilation + 1) // 2:
        raise _runtime(f"pad should be at most half of effective kernel size, but got pad={pad}, kernel_size={k} and "
                       f"dilation={dilation}")
    out = _div_rtn(size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0), stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _shape_check(x: Tensor, kh, kw, sh, sw, ph, pw, dh, dw, planes, ih, iw, oh, ow) -> None:
    if kw <= 0 or kh <= 0:
        raise _runtime(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sw <= 0 or sh <= 0:
        raise _runtime(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise _runtime(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    shp = x._data.shape
    nd = len(shp)
    valid = shp[1] != 0 and shp[2] != 0
    if not ((nd == 3 and shp[0] != 0 and valid) or (nd == 4 and valid and shp[3] != 0)):
        raise _runtime("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                       + "[" + ", ".join(map(str, shp)) + "]")
    if kw // 2 < pw or kh // 2 < ph:
        raise _runtime(f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, padH = {ph}, "
                       f"kW = {kw}, kH = {kh}")
    if ow < 1 or oh < 1:
        raise _runtime(f"Given input size: ({planes}x{ih}x{iw}). Calculated output size: ({planes}x{oh}x{ow}). "
                       "Output size is too small")


def _pair(fn: str, what: str, v: list, allow_empty: bool = False) -> tuple:
    if not (len(v) in (1, 2) or (allow_empty and not v)):
        raise _runtime(f"{fn}: {what}")
    if not v:
        return None  # type: ignore[return-value]
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def _starts(o: int, k: int, s: int, p: int, d: int, size: int):
    """Per output position along one dim: the input position of each kernel tap (-1 outside the input),
    as an (o, k) array."""
    pos = np.arange(o)[:, None] * s - p + np.arange(k)[None, :] * d
    return np.where((pos >= 0) & (pos < size), pos, -1)


# --- max pooling ---------------------------------------------------------------------------------------------


class MaxPool2DWithIndicesBackward0(Node):
    __slots__ = ("in_shape",)
    formula = "self: grad added to the input position of each window's maximum (indices)"

    def apply(self, grads):
        g = grads[0]
        self._unpack(0)  # self is saved (PyTorch checks its version too)
        indices = self._unpack(1)
        return (_max_pool_backward(g, indices._data, self.in_shape),)


class MaxPool2DWithIndicesBackwardBackward0(Node):
    __slots__ = ()
    formula = "grad_output: grad gathered at indices"

    def apply(self, grads):
        gg = grads[0]
        indices = self._unpack(0)
        return (_gather_planes(gg, indices._data), None)


def _gather_planes(t: Tensor, idx: np.ndarray) -> Tensor:
    """``t`` (..., H, W) gathered per plane at the flat indices ``idx`` (..., oH, oW): the double backward of
    the max pool (PyTorch's max_pool_double_backward), itself differentiable."""
    a = t._data
    lead = a.shape[:-2]
    flat = a.reshape(lead + (-1,))
    data = np.take_along_axis(flat, idx.reshape(lead + (-1,)), axis=-1).reshape(idx.shape)
    out, node = record(_GatherPlanesBackward, np.ascontiguousarray(data), t._dtype, (t,))
    if node is not None:
        node.idx = idx
        node.in_shape = a.shape
    return out


class _GatherPlanesBackward(Node):
    __slots__ = ("idx", "in_shape")

    def apply(self, grads):
        return (_max_pool_backward(grads[0], self.idx, self.in_shape),)


def _max_pool_backward(g: Tensor, idx: np.ndarray, in_shape: tuple) -> Tensor:
    lead = in_shape[:-2]
    plane = in_shape[-2] * in_shape[-1]
    gd = g._data.reshape((-1, idx.shape[-2] * idx.shape[-1]))
    ix = idx.reshape(gd.shape)
    out = np.zeros((gd.shape[0], plane), dtype=g._data.dtype)
    rows = np.broadcast_to(np.arange(gd.shape[0])[:, None], ix.shape)
    np.add.at(out, (rows.ravel(), ix.ravel()), gd.ravel())  # unbuffered, in output order
    res, node = record(MaxPool2DWithIndicesBackwardBackward0, np.ascontiguousarray(out.reshape(lead + in_shape[-2:])),
                       g._dtype, (g, None))
    if node is not None:
        node._save(saved(Tensor._from_data(idx, dt.int64)))
    return res


def _max_pool2d_core(input: Tensor, k: tuple, s: tuple, p: tuple, d: tuple, ceil_mode: bool,
                     fn: str = "max_pool2d") -> tuple:
    """(values, indices) of a checked 3-d or 4-d input; values record MaxPool2DWithIndicesBackward0."""
    a = input._data
    ih, iw = a.shape[-2:]
    oh = _output_size(ih, k[0], p[0], s[0], d[0], ceil_mode)
    ow = _output_size(iw, k[1], p[1], s[1], d[1], ceil_mode)
    planes = a.shape[-3]
    _shape_check(input, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1], planes, ih, iw, oh, ow)
    lead = a.shape[:-2]
    check_numel(int(np.prod(lead)) * oh * ow)
    rows = _starts(oh, k[0], s[0], p[0], d[0], ih)  # (oh, kh)
    cols = _starts(ow, k[1], s[1], p[1], d[1], iw)  # (ow, kw)
    flat = a.reshape(lead + (ih * iw,))
    first_r = np.array([r[r >= 0][0] for r in rows])  # PyTorch: hstart moved inside by whole dilations
    first_c = np.array([c[c >= 0][0] for c in cols])
    best_idx = np.broadcast_to((first_r[:, None] * iw + first_c[None, :]), lead + (oh, ow)).copy()
    is_float = input._dtype.is_floating_point
    best = np.full(lead + (oh, ow), -np.inf if is_float else np.iinfo(a.dtype).min, dtype=a.dtype)
    for i in range(k[0]):
        r = rows[:, i]
        for j in range(k[1]):
            c = cols[:, j]
            inside = (r[:, None] >= 0) & (c[None, :] >= 0)  # (oh, ow)
            pos = np.where(inside, r[:, None] * iw + c[None, :], 0)
            val = np.take(flat, pos, axis=-1)  # lead + (oh, ow)
            take = inside & ((val > best) | (np.isnan(val) if is_float else False))
            best = np.where(take, val, best)
            best_idx = np.where(take, pos, best_idx)
    # a window whose only candidates are -inf keeps its first position with value -inf (PyTorch's start)
    values = np.take_along_axis(flat, best_idx.reshape(lead + (-1,)), axis=-1).reshape(best_idx.shape)
    out, node = record(MaxPool2DWithIndicesBackward0, np.ascontiguousarray(values), input._dtype, (input,))
    indices = Tensor._from_data(np.ascontiguousarray(best_idx, dtype=np.int64), dt.int64)
    if node is not None:
        node.in_shape = a.shape
        node._save(saved(input), saved(indices))
    return out, indices


def _max_pool2d_args(fn: str, input: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any) -> tuple:
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    ks = _ints(fn, "kernel_size", 2, kernel_size)
    st = [] if stride is None else _ints(fn, "stride", 3, stride)
    pd = _ints(fn, "padding", 4, padding)
    dl = _ints(fn, "dilation", 5, dilation)
    k = _pair("max_pool2d", "kernel_size must either be a single int, or a tuple of two ints", ks)
    s = _pair("max_pool2d", "stride must either be omitted, a single int, or a tuple of two ints", st, True) or k
    p = _pair("max_pool2d", "padding must either be a single int, or a tuple of two ints", pd)
    d = _pair("max_pool2d", "dilation must be either a single int, or a tuple of two ints", dl)
    if input._data.ndim not in (3, 4):
        raise _runtime("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input._dtype.name == "bool":
        raise error_class("runtime")("\"max_pool2d\" not implemented for 'Bool'")
    return k, s, p, d


@python_errors
def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False) -> tuple:
    """``torch._C._nn.max_pool2d_with_indices``: (values, int64 indices) of 2-d max pooling."""
    k, s, p, d = _max_pool2d_args("max_pool2d_with_indices", input, kernel_size, stride, padding, dilation)
    return _max_pool2d_core(input, k, s, p, d, _bool("max_pool2d_with_indices", "ceil_mode", 6, ceil_mode))


@python_errors
def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """``F.max_pool2d``: input (N, C, H, W) or (C, H, W); ``stride`` defaults to ``kernel_size``; with
    ``return_indices`` also the int64 flat indices of each maximum.  MaxPool2DWithIndicesBackward0."""
    k, s, p, d = _max_pool2d_args("max_pool2d", input, kernel_size, stride, padding, dilation)
    values, indices = _max_pool2d_core(input, k, s, p, d, _bool("max_pool2d", "ceil_mode", 6, ceil_mode))
    return (values, indices) if return_indices else values


@python_errors
def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """``F.max_pool1d``: input (N, C, L) or (C, L), PyTorch's composite over the 2-d kernel (see the module
    docstring); indices are positions along L."""
    fn = "max_pool1d"
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    ks = _ints(fn, "kernel_size", 2, kernel_size)
    st = [] if stride is None else _ints(fn, "stride", 3, stride)
    pd = _ints(fn, "padding", 4, padding)
    dl = _ints(fn, "dilation", 5, dilation)
    _bool(fn, "ceil_mode", 6, ceil_mode)
    shp = input._data.shape
    if len(shp) not in (2, 3) or any(v == 0 for v in shp[-2 if len(shp) == 3 else -1:]) or \
            (len(shp) in (2, 3) and shp[-1] == 0):
        raise _runtime("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, "
                       "but got:[" + ", ".join(map(str, shp)) + "]")
    if len(ks) != 1:
        raise _runtime(f"max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
                       f"size {len(ks)}")
    if st and len(st) != 1:
        raise _runtime(f"max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got "
                       f"size {len(st)}")
    if len(pd) != 1:
        raise _runtime(f"max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size "
                       f"{len(pd)}")
    if len(dl) != 1:
        raise _runtime(f"max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size "
                       f"{len(dl)}")
    k = ks[0]
    s = st[0] if st else k
    p, d = pd[0], dl[0]
    if k <= 0:
        raise _runtime(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise _runtime(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise _runtime(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise _runtime(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                       f"kernel_size={k}")
    if d <= 0:
        raise _runtime(f"max_pool1d() dilation must be greater than zero, but got {d}")
    ow = _output_size(shp[-1], k, p, s, d, bool(ceil_mode))
    if ow <= 0:
        raise _runtime(f"max_pool1d() Invalid computed output size: {ow}")
    if input._dtype.name == "bool":
        raise error_class("runtime")("\"max_pool1d_impl\" not implemented for 'Bool'")
    values, indices = _max_pool2d_core(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), bool(ceil_mode))
    values = values.squeeze(-2)
    if return_indices:
        return values, indices.squeeze(-2)
    return values


# --- average pooling -----------------------------------------------------------------------------------------


class AvgPool2DBackward0(Node):
    __slots__ = ("k", "s", "p", "ceil_mode", "count_include_pad", "divisor_override", "in_shape", "out_hw")
    formula = "self: grad / divisor spread over each window (avg_pool2d_backward)"

    def apply(self, grads):
        self._unpack(0)  # self is saved (PyTorch checks its version too)
        return (_avg_pool_backward(grads[0], self),)


class AvgPool2DBackwardBackward0(Node):
    __slots__ = ("fwd",)
    formula = "grad_output: avg_pool2d(grad)"

    def apply(self, grads):
        f = self.fwd
        return (_avg_pool_values(grads[0], f.k, f.s, f.p, f.ceil_mode, f.count_include_pad, f.divisor_override),)


def _divisors(ih, iw, oh, ow, k, s, p, count_include_pad, divisor_override) -> np.ndarray:
    """Per output position: PyTorch's divide_factor (pool size with padding, or inside the input only)."""
    if divisor_override is not None:
        return np.full((oh, ow), divisor_override, dtype=np.int64)
    h0 = np.arange(oh) * s[0] - p[0]
    w0 = np.arange(ow) * s[1] - p[1]
    h1 = np.minimum(h0 + k[0], ih + p[0])
    w1 = np.minimum(w0 + k[1], iw + p[1])
    if count_include_pad:
        return (h1 - h0)[:, None] * (w1 - w0)[None, :]
    h0c, w0c = np.maximum(h0, 0), np.maximum(w0, 0)
    h1c, w1c = np.minimum(h1, ih), np.minimum(w1, iw)
    return (h1c - h0c)[:, None] * (w1c - w0c)[None, :]


def _avg_pool_values(t: Tensor, k, s, p, ceil_mode, count_include_pad, divisor_override) -> Tensor:
    a = t._data
    ih, iw = a.shape[-2:]
    oh = _output_size(ih, k[0], p[0], s[0], 1, ceil_mode)
    ow = _output_size(iw, k[1], p[1], s[1], 1, ceil_mode)
    planes = a.shape[-3]
    _shape_check(t, k[0], k[1], s[0], s[1], p[0], p[1], 1, 1, planes, ih, iw, oh, ow)
    lead = a.shape[:-2]
    check_numel(int(np.prod(lead)) * oh * ow)
    acc_dt = a.dtype if t._dtype.is_floating_point else np.int64
    padded = np.zeros(lead + (ih + 2 * p[0] + k[0] + s[0], iw + 2 * p[1] + k[1] + s[1]), dtype=acc_dt)
    padded[..., p[0]:p[0] + ih, p[1]:p[1] + iw] = a
    total = np.zeros(lead + (oh, ow), dtype=acc_dt)
    # windows clipped to [-pad, size + pad) as PyTorch's (ih1 = min(ih0 + kH, H + padH)); the zeros beyond
    # add nothing, so every window sums its taps in scan order
    for i in range(k[0]):
        for j in range(k[1]):
            total = total + padded[..., i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]]
    div = _divisors(ih, iw, oh, ow, k, s, p, count_include_pad, divisor_override)
    if t._dtype.is_floating_point:
        values = (total / div.astype(a.dtype)).astype(a.dtype)
    else:
        values = (np.sign(total) * (np.abs(total) // div)).astype(a.dtype)  # C++ division truncates
    out, node = record(AvgPool2DBackward0, np.ascontiguousarray(values), t._dtype, (t,))
    if node is not None:
        node.k, node.s, node.p, node.ceil_mode = k, s, p, ceil_mode
        node.count_include_pad, node.divisor_override = count_include_pad, divisor_override
        node.in_shape = a.shape
        node.out_hw = (oh, ow)
        node._save(saved(t))
    return out


def _avg_pool_backward(g: Tensor, f: AvgPool2DBackward0) -> Tensor:
    ih, iw = f.in_shape[-2:]
    oh, ow = f.out_hw
    k, s, p = f.k, f.s, f.p
    div = _divisors(ih, iw, oh, ow, k, s, p, f.count_include_pad, f.divisor_override)
    delta = (g._data / div.astype(g._data.dtype)).astype(g._data.dtype)
    lead = f.in_shape[:-2]
    buf = np.zeros(lead + (ih + 2 * p[0] + k[0] + s[0], iw + 2 * p[1] + k[1] + s[1]), dtype=g._data.dtype)
    # each input element receives its windows' deltas in output order: kernel taps in reverse order
    for i in reversed(range(k[0])):
        for j in reversed(range(k[1])):
            view = buf[..., i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]]
            view += delta
    data = np.ascontiguousarray(buf[..., p[0]:p[0] + ih, p[1]:p[1] + iw])
    out, node = record(AvgPool2DBackwardBackward0, data, g._dtype, (g,))
    if node is not None:
        node.fwd = f
    return out


@python_errors
def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: Optional[int] = None) -> Tensor:
    """``F.avg_pool2d``: the mean of each window of an (N, C, H, W) or (C, H, W) input (AvgPool2DBackward0);
    see the module docstring for the divisor."""
    fn = "avg_pool2d"
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    ks = _ints(fn, "kernel_size", 2, kernel_size)
    st = [] if stride is None else _ints(fn, "stride", 3, stride)
    pd = _ints(fn, "padding", 4, padding)
    _bool(fn, "ceil_mode", 5, ceil_mode)
    _bool(fn, "count_include_pad", 6, count_include_pad)
    if divisor_override is not None and not _is_int(divisor_override):
        raise ArgumentTypeError(f"{fn}(): argument 'divisor_override' must be int, not {type(divisor_override).__name__}")
    k = _pair(fn, "kernel_size must either be a single int, or a tuple of two ints", ks)
    s = _pair(fn, "stride must either be omitted, a single int, or a tuple of two ints", st, True) or k
    p = _pair(fn, "padding must either be a single int, or a tuple of two ints", pd)
    if divisor_override is not None and divisor_override == 0:
        raise _runtime("divisor must be not zero")
    nd = input._data.ndim
    if nd < 3:
        from ..errors import ArgumentIndexError

        n = max(nd, 1)
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got -3)")
    if input._dtype.name == "bool":
        raise error_class("runtime")("\"avg_pool2d\" not implemented for 'Bool'")
    return _avg_pool_values(input, k, s, p, bool(ceil_mode), bool(count_include_pad), divisor_override)


# --- registration --------------------------------------------------------------------------------------------


def _f64(*shape, seed=0):
    from .creation import tensor

    rng = np.random.default_rng(seed + 13 * len(shape) + sum(shape))
    # distinct values, well apart, so that finite differences never move a maximum
    v = rng.permutation(np.linspace(-1.0, 1.0, int(np.prod(shape)))).reshape(shape)
    return tensor(v.tolist(), dtype=dt.float64, requires_grad=True)


register("max_pool2d", max_pool2d, "pooling", torch=("max_pool2d",), F=("max_pool2d",), methods=(),
         nodes=("MaxPool2DWithIndicesBackward0",), formula=MaxPool2DWithIndicesBackward0.formula,
         sample=lambda: ((_f64(1, 2, 5, 5), 3), {"stride": 2, "padding": 1}))
register("max_pool2d_with_indices", max_pool2d_with_indices, "pooling", torch=(), F=("max_pool2d_with_indices",),
         methods=(), nodes=("MaxPool2DWithIndicesBackward0",), formula=MaxPool2DWithIndicesBackward0.formula)
register("max_pool1d", max_pool1d, "pooling", torch=("max_pool1d",), F=("max_pool1d",), methods=(),
         nodes=("SqueezeBackward1", "MaxPool2DWithIndicesBackward0", "UnsqueezeBackward0"),
         formula="unsqueeze(-2), max_pool2d with a (1, k) window, squeeze(-2)",
         sample=lambda: ((_f64(2, 3, 7), 2), {"dilation": 2}))
register("avg_pool2d", avg_pool2d, "pooling", torch=(), F=("avg_pool2d",), methods=(),
         nodes=("AvgPool2DBackward0",), formula=AvgPool2DBackward0.formula,
         sample=lambda: ((_f64(1, 2, 5, 4), 2), {"stride": 1, "padding": 1, "count_include_pad": False}))
