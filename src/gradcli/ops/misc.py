"""Miscellaneous differentiable ops from common tutorial code: masked_fill, index_select, gather, tril/triu,
diagonal, roll, lerp, hypot, atan2, trace; and the scatter helpers their backward rules need.

Node names, formulas and error kinds follow PyTorch 2.13 (derivatives.yaml):
``MaskedFillBackward0`` (number value) / ``MaskedFillBackward1`` (0-d tensor value), ``IndexSelectBackward0``,
``GatherBackward0``, ``TrilBackward0``/``TriuBackward0``, ``DiagonalBackward0`` (a view sharing storage),
``RollBackward0``, ``LerpBackward0`` (number weight) / ``LerpBackward1`` (tensor weight), ``HypotBackward0``,
``Atan2Backward0`` (the gradient is 0 at (0, 0), as PyTorch masks the infinite reciprocal), ``TraceBackward0``.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd import fma as _fma
from ..errors import ArgumentIndexError, ArgumentTypeError, error_class
from ._core import (
    Node,
    Tensor,
    broadcast_shapes,
    dt,
    record,
    result_dtype,
    saved,
    shape_error,
)
from .registry import register
from .shape import composite_view

__all__ = [
    "atan2",
    "diag",
    "diagonal",
    "gather",
    "hypot",
    "index_add_zeros",
    "index_select",
    "lerp",
    "masked_fill",
    "rename",
    "roll",
    "scatter_add_zeros",
    "scatter_into_zeros",
    "trace",
    "tril",
    "triu",
    "zero_link",
    "diag_link",
]

_CPP = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
        "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}
_TN = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int", "int16": "Short",
       "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _runtime(msg: str, hint: str | None = None):
    return error_class("runtime")(msg, hint)


def _need_tensor(fn: str, name: str, pos: int, x) -> None:
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(x).__name__}")


def check_number(fn: str, name: str, v) -> None:
    """TypeError unless v is a Python number (PyTorch's Scalar arguments)."""
    if not isinstance(v, (int, float)):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' must be Number, not {type(v).__name__}")


def check_int(fn: str, name: str, v) -> None:
    """TypeError unless v is a Python int."""
    if not isinstance(v, int):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' must be int, not {type(v).__name__}")


def check_ints(fn: str, name: str, v) -> None:
    """TypeError unless v is an int or a sequence of ints."""
    items = v if isinstance(v, (list, tuple)) else (v,)
    for x in items:
        if not isinstance(x, int):
            raise ArgumentTypeError(f"{fn}(): argument '{name}' must be tuple of ints, but found element of type "
                            f"{type(x).__name__}")


def _wrap(dim: int, ndim: int) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise ArgumentTypeError(f"dim must be an int, not {type(dim).__name__}")
    n = ndim if ndim else 1
    if not -n <= dim < n:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _along(index: np.ndarray, dim: int) -> tuple:
    """Fancy index selecting, for each position of ``index``, that position with dim replaced by index."""
    idx: list = list(np.indices(index.shape, sparse=True))
    idx[dim] = index
    return tuple(idx)


def _int_index(fn: str, index: Tensor, msg: str) -> np.ndarray:
    if index._dtype not in (dt.int64, dt.int32):
        raise _runtime(msg)
    return index._data.astype(np.int64)


# --- scatter helpers (the backward of gather / index_select / max(dim)) ----------------------------------------


class _GatherLike(Node):
    """Backward of a scatter into zeros: the gradient is read back with gather."""

    __slots__ = ("dim", "index")
    formula = "src: grad.gather(dim, index)"

    def apply(self, grads):
        return (gather(grads[0], self.dim, Tensor._from_data(self.index, dt.int64)),)


class ScatterBackward0(_GatherLike):
    __slots__ = ()


class ScatterAddBackward0(_GatherLike):
    __slots__ = ()


def _scatter_zeros(src: Tensor, shape: tuple, dim: int, index: Tensor, node_cls) -> Tensor:
    idx = index._data.astype(np.int64)
    data = np.zeros(shape, dtype=src._dtype.np)
    if idx.size:
        part = src._data[tuple(slice(0, s) for s in idx.shape)] if src._data.ndim else src._data
        np.add.at(data, _along(idx, dim), part)
    out, node = record(node_cls, data, src._dtype, (src,))
    if node is not None:
        node.dim, node.index = dim, idx
    return out


def scatter_into_zeros(src: Tensor, shape: tuple, dim: int, index: Tensor) -> Tensor:
    """zeros(shape).scatter(dim, index, src) for distinct indices (the backward of max/min with dim)."""
    return _scatter_zeros(src, tuple(shape), dim, index, ScatterBackward0)


def scatter_add_zeros(src: Tensor, shape: tuple, dim: int, index: Tensor) -> Tensor:
    """zeros(shape).scatter_add(dim, index, src) (the backward of gather)."""
    return _scatter_zeros(src, tuple(shape), dim, index, ScatterAddBackward0)


class IndexAddBackward0(Node):
    __slots__ = ("dim", "index")
    formula = "source: grad.index_select(dim, index)"

    def apply(self, grads):
        return (index_select(grads[0], self.dim, Tensor._from_data(self.index, dt.int64)),)


def index_add_zeros(src: Tensor, shape: tuple, dim: int, index: np.ndarray) -> Tensor:
    """zeros(shape).index_add(dim, index, src) (the backward of index_select)."""
    data = np.zeros(shape, dtype=src._dtype.np)
    moved = np.moveaxis(data, dim, 0)
    np.add.at(moved, index, np.moveaxis(src._data, dim, 0))
    out, node = record(IndexAddBackward0, data, src._dtype, (src,))
    if node is not None:
        node.dim, node.index = dim, index
    return out


# --- a zero-derivative dependency (PyTorch's double-backward nodes) -------------------------------------------


class _ZeroLink(Node):
    """Passes ``value`` through and gives ``dep`` a zero gradient.

    PyTorch's backward formulas are themselves differentiable functions of the saved inputs (e.g.
    ``leaky_relu_backward(grad, self)``), so with ``create_graph=True`` their result requires grad and its
    derivative with respect to those inputs is a zero tensor, not "unused".  A rule whose value does not depend
    on the input wraps its result with :func:`zero_link` to keep that behaviour.
    """

    __slots__ = ("dep_dtype", "dep_shape")
    formula = "value: grad; dep: zeros"

    def apply(self, grads):
        from .creation import zeros

        n = self._needs
        g = grads[0]
        return (g if n[0] else None, zeros(self.dep_shape, dtype=self.dep_dtype) if n[1] else None)


_LINKS: dict = {}


def zero_link(value: Tensor, dep: Tensor, name: str) -> Tensor:
    """``value``, made to depend (with zero derivative) on ``dep`` through a node called ``name``."""
    cls = _LINKS.get(name)
    if cls is None:
        cls = _LINKS[name] = type(name, (_ZeroLink,), {"__slots__": (), "__module__": __name__})
    out, node = record(cls, value._data, value._dtype, (value, dep))
    if node is None:
        return value
    node.dep_shape, node.dep_dtype = dep._data.shape, dep._dtype
    return out


class _DiagLink(Node):
    """A backward that PyTorch implements as one differentiable op, elementwise-linear in the incoming gradient
    with a factor that depends only on the saved ``self`` (leaky_relu_backward, hardtanh_backward): its
    derivative in the gradient is the same op, in ``self`` zero (derivatives.yaml: ``self: zeros_like(grad)``)."""

    __slots__ = ("fn", "dep_dtype", "dep_shape")
    formula = "grad_output: the same backward of grad; self: zeros_like(grad)"

    def apply(self, grads):
        from .creation import zeros

        n = self._needs
        gg = grads[0]
        self._unpack(0)  # self is saved (second_backward once released, inplace_modified if changed)
        return (diag_link(self.fn, gg, self._unpack(0), type(self).__name__) if n[0] else None,
                zeros(self.dep_shape, dtype=self.dep_dtype) if len(n) > 1 and n[1] else None)


_DIAG: dict = {}


def diag_link(fn, grad: Tensor, dep: Tensor, name: str) -> Tensor:
    """``fn(grad data)`` (an elementwise-linear numpy function of the gradient whose factor depends only on
    ``dep``, e.g. ``where(self > 0, g, g * slope)``) recorded as node ``name`` with edges to ``grad`` and
    ``dep`` and ``dep`` saved, as PyTorch's ``*BackwardBackward0`` nodes."""
    cls = _DIAG.get(name)
    if cls is None:
        cls = _DIAG[name] = type(name, (_DiagLink,), {"__slots__": (), "__module__": __name__})
    data = np.asarray(fn(grad._data)).astype(grad._dtype.np, copy=False)
    out, node = record(cls, data, grad._dtype, (grad, dep))
    if node is not None:
        node.fn = fn
        node.dep_shape, node.dep_dtype = dep._data.shape, dep._dtype
        node._save(saved(dep))
    return out


_RENAMED: dict = {}


def rename(t: Tensor, name: str) -> Tensor:
    """Give the node that just made ``t`` PyTorch's name for it (e.g. ``GeluBackwardBackward0``, the node of a
    backward formula that PyTorch implements as one differentiable op); behaviour is unchanged."""
    fn = t._grad_fn
    if fn is None or type(fn).__name__ == name:
        return t
    base = type(fn)
    cls = _RENAMED.get((base, name))
    if cls is None:
        cls = _RENAMED[(base, name)] = type(name, (base,), {"__slots__": (), "__module__": base.__module__})
    fn.__class__ = cls
    return t


# --- masked_fill ------------------------------------------------------------------------------------------------


class MaskedFillBackward0(Node):
    __slots__ = ()
    formula = "self: grad.masked_fill(mask, 0)"

    def apply(self, grads):
        return (masked_fill(grads[0], self._unpack(0), 0),)


class MaskedFillBackward1(Node):
    __slots__ = ()
    formula = "self: grad.masked_fill(mask, 0); value: grad.masked_select(mask).sum()"

    def apply(self, grads):
        from .elementwise import where

        g = grads[0]
        n = self._needs
        mask = self._unpack(0)
        gs = masked_fill(g, mask, 0) if n[0] else None
        gv = where(mask, g, 0.0).sum() if n[1] else None
        return (gs, gv)


def masked_fill(input, mask, value):
    """input with ``value`` where ``mask`` (a bool tensor broadcast with input) is True (MaskedFillBackward0 for a
    number, MaskedFillBackward1 for a 0-d tensor value)."""
    _need_tensor("masked_fill", "input", 1, input)
    _need_tensor("masked_fill", "mask", 2, mask)
    if mask._dtype is not dt.bool_:
        raise _runtime(f"masked_fill_ only supports boolean masks, but got mask with dtype {_CPP[mask._dtype.name]}")
    vt = value if isinstance(value, Tensor) else None
    if vt is not None and vt._data.ndim != 0:
        raise _runtime("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                       f"{vt._data.ndim} dimension(s).")
    if vt is None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ArgumentTypeError(f"masked_fill(): argument 'value' must be Number, not {type(value).__name__}")
    shape = broadcast_shapes(mask._data.shape, input._data.shape)
    v = vt._data if vt is not None else value
    with np.errstate(all="ignore"):
        fillv = np.asarray(v).astype(input._dtype.np) if not input._dtype.is_floating_point \
            else np.asarray(v, dtype=input._dtype.np)
    data = np.where(mask._data, fillv, input._data).astype(input._dtype.np, copy=False)
    data = np.broadcast_to(data, shape).copy()
    if vt is None:
        # the number is wrapped in a normal tensor below autograd, so an inference input outside
        # inference_mode still records the node (PyTorch 2.13)
        out, node = record(MaskedFillBackward0, data, input._dtype, (input,), wrapped_number=True)
    else:
        out, node = record(MaskedFillBackward1, data, input._dtype, (input, vt if vt._dtype.is_floating_point
                                                                            else None))
    if node is not None:
        node._save(saved(mask))
    return out


# --- index_select / gather ------------------------------------------------------------------------------------------


class IndexSelectBackward0(Node):
    __slots__ = ("dim", "shape")
    formula = "self: zeros(self.sizes()).index_add(dim, index, grad)"

    def apply(self, grads):
        self._unpack(1)  # the index tensor is saved: an in-place change of it fails, as in PyTorch
        return (index_add_zeros(grads[0], self.shape, self.dim, self._unpack(0)),)


def index_select(input, dim: int, index):
    """Entries of input at ``index`` (a 1-d int tensor) along dim (IndexSelectBackward0)."""
    _need_tensor("index_select", "input", 1, input)
    _need_tensor("index_select", "index", 3, index)
    if index._data.ndim > 1:
        raise ArgumentIndexError("index_select(): Index is supposed to be a vector")
    idx = _int_index("index_select", index, "index_select(): Expected dtype int32 or int64 for index").reshape(-1)
    nd = input._data.ndim
    d = _wrap(dim, nd)
    a = input._data if nd else input._data.reshape(1)
    size = a.shape[d]
    if nd == 0 and idx.size != 1:
        raise _runtime(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
    bad = idx[(idx < 0) | (idx >= size)] if idx.size else idx
    if bad.size:  # (no negative index either) the message is the one of the CPU kernel's path (PyTorch 2.13)
        if nd <= 1:
            raise ArgumentIndexError("index out of range in self")
        if input._data.size == 0 and size == 0:
            raise _runtime("index_select(): self indexing axis dim should be positive")
        if input._data.size == 0 or d == 1:
            raise _runtime(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={size}")
        raise ArgumentIndexError("index out of range in self")
    data = np.take(a, idx, axis=d)
    if nd == 0:
        data = data.reshape(())
    # a normal index tensor brings autograd in for an inference input outside inference_mode (PyTorch 2.13)
    out, node = record(IndexSelectBackward0, data, input._dtype, (input,), wrapped_number=not index._inference)
    if node is not None:  # a 0-d input is treated as 1-d; the engine sums the (1,) gradient back to ()
        node.dim, node.shape = d, a.shape
        node._save(idx, saved(index))  # PyTorch saves the index: freed after backward, version-checked
    return out


class GatherBackward0(Node):
    __slots__ = ("dim", "shape")
    _pack_order = (2, 1)  # PyTorch saves inputs by name
    formula = "self: zeros(self.sizes()).scatter_add(dim, index, grad)"

    def apply(self, grads):
        self._unpack(1), self._unpack(2)  # PyTorch unpacks self and index: an in-place change of either fails
        return (scatter_add_zeros(grads[0], self.shape, self.dim, Tensor._from_data(self._unpack(0), dt.int64)),)


def gather(input, dim: int, index, *, sparse_grad: bool = False):
    """out[i][j] = input[i][index[i][j]] along dim (GatherBackward0); index has input's number of dims."""
    _need_tensor("gather", "input", 1, input)
    _need_tensor("gather", "index", 3, index)
    idx = _int_index("gather", index, "gather(): Expected dtype int32/int64 for index")
    nd = input._data.ndim
    d = _wrap(dim, nd)
    if idx.ndim != nd and not (nd <= 1 and idx.ndim <= 1):
        raise _runtime("Index tensor must have the same number of dimensions as input tensor")
    a = input._data
    for k in range(idx.ndim):
        if k != d and idx.shape[k] > a.shape[k]:
            raise _runtime(f"Size does not match at dimension {k} expected index {list(idx.shape)} to be no larger "
                           f"than self {list(a.shape)} apart from dimension {d}")
    if idx.size:
        size = a.shape[d] if nd else 1
        bad = idx[(idx < -size) | (idx >= size)]
        if bad.size:
            raise _runtime(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {d} with size {size}")
        idx = np.where(idx < 0, idx + size, idx)
    if nd == 0:
        data = a.reshape(1)[idx.reshape(-1)].reshape(idx.shape)
    else:
        data = a[_along(idx, d)] if idx.size else np.zeros(idx.shape, dtype=a.dtype)
    out, node = record(GatherBackward0, np.asarray(data), input._dtype, (input,), wrapped_number=not index._inference)
    if node is not None:
        # self and index are saved as in PyTorch (version checks; an inference self: "cannot be saved")
        node._save(idx, saved(input), saved(index))
        node.dim, node.shape = d, a.shape
    return out


# --- tril / triu / diagonal / trace -------------------------------------------------------------------------------------


class TrilBackward0(Node):
    __slots__ = ("diagonal",)
    formula = "self: grad.tril(diagonal)"

    def apply(self, grads):
        return (tril(grads[0], self.diagonal),)


class TriuBackward0(Node):
    __slots__ = ("diagonal",)
    formula = "self: grad.triu(diagonal)"

    def apply(self, grads):
        return (triu(grads[0], self.diagonal),)


def _tri(input, diagonal: int, lower: bool):
    name = "tril" if lower else "triu"
    _need_tensor(name, "input", 1, input)
    check_int(name, "diagonal", diagonal)
    if input._data.ndim < 2:
        raise _runtime(f"{name}: input tensor must have at least 2 dimensions")
    a = input._data
    data = np.tril(a, diagonal) if lower else np.triu(a, diagonal)
    out, node = record(TrilBackward0 if lower else TriuBackward0, data.astype(a.dtype, copy=False), input._dtype,
                       (input,))
    if node is not None:
        node.diagonal = diagonal
    return out


def tril(input, diagonal: int = 0):
    """The lower triangle (entries with j - i <= diagonal) of the last two dims; the rest 0 (TrilBackward0)."""
    return _tri(input, diagonal, True)


def triu(input, diagonal: int = 0):
    """The upper triangle (entries with j - i >= diagonal) of the last two dims; the rest 0 (TriuBackward0)."""
    return _tri(input, diagonal, False)


def _diag_view(a: np.ndarray, offset: int, d1: int, d2: int) -> np.ndarray:
    """A numpy view of the diagonal of dims (d1, d2) (writable when ``a`` is): those dims removed, the
    diagonal appended last, as torch.diagonal."""
    n1, n2 = a.shape[d1], a.shape[d2]
    if offset >= 0:
        n = max(0, min(n1, n2 - offset))
        sub = a[(slice(None),) * d2 + (slice(offset, None),)] if n else a
    else:
        n = max(0, min(n1 + offset, n2))
        sub = a[(slice(None),) * d1 + (slice(-offset, None),)] if n else a
    shape = [s for i, s in enumerate(a.shape) if i not in (d1, d2)] + [n]
    strides = [s for i, s in enumerate(a.strides) if i not in (d1, d2)] + [a.strides[d1] + a.strides[d2]]
    return np.lib.stride_tricks.as_strided(sub, shape=shape, strides=strides, writeable=sub.flags.writeable)


class DiagonalBackward0(Node):
    __slots__ = ("d1", "d2", "offset", "shape")
    formula = "self: zeros(self.sizes()) with grad on the diagonal (diagonal_backward)"

    def apply(self, grads):
        return (_diagonal_backward(grads[0], self.shape, self.offset, self.d1, self.d2),)


class _DiagonalEmbed(Node):
    __slots__ = ("d1", "d2", "offset")
    formula = "grad: grad.diagonal(offset, dim1, dim2)"

    def apply(self, grads):
        return (diagonal(grads[0], self.offset, self.d1, self.d2),)


_DiagonalBackwardBackward = type("DiagonalBackwardBackward0", (_DiagonalEmbed,), {"__slots__": ()})


def _diagonal_backward(g: Tensor, shape: tuple, offset: int, d1: int, d2: int) -> Tensor:
    data = np.zeros(shape, dtype=g._dtype.np)
    _diag_view(data, offset, d1, d2)[...] = g._data
    out, node = record(_DiagonalBackwardBackward, data, g._dtype, (g,))
    if node is not None:
        node.offset, node.d1, node.d2 = offset, d1, d2
    return out


def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """The diagonal of dims (dim1, dim2) as a view, appended as the last dim (DiagonalBackward0)."""
    from .shape import _view

    _need_tensor("diagonal", "input", 1, input)
    for n_, v_ in (("offset", offset), ("dim1", dim1), ("dim2", dim2)):
        check_int("diagonal", n_, v_)
    nd = input._data.ndim
    d1, d2 = _wrap(dim1, nd), _wrap(dim2, nd)
    if d1 == d2:
        raise _runtime(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = _diag_view(input._data, offset, d1, d2)
    out, node = _view(input, data, DiagonalBackward0, lambda a, o=offset, x=d1, y=d2: _diag_view(a, o, x, y))
    if node is not None:
        node.shape, node.offset, node.d1, node.d2 = input._data.shape, offset, d1, d2
    return out


class TraceBackward0(Node):
    __slots__ = ("shape",)
    formula = "self: eye(self.sizes()) * grad"

    def apply(self, grads):
        g = grads[0]
        if not g.requires_grad:
            # PyTorch's trace_backward: zeros, then the diagonal filled with grad (index_fill_), so the
            # off-diagonal stays 0 even for a nan/inf grad (eye * grad would give nan there)
            out = np.zeros(self.shape, dtype=g._dtype.np)
            np.fill_diagonal(out, g._data)
            return (Tensor._from_data(out, g._dtype),)
        # under create_graph PyTorch's zeros(n * m).index_fill_(0, diagonal, grad).view(sizes): the result's
        # grad_fn is ViewBackward0 (here the flat diagonal as eye * grad, the same derivative in grad)
        eye = np.eye(self.shape[0], self.shape[1], dtype=g._dtype.np).reshape(-1)
        return ((g * Tensor._from_data(eye, g._dtype)).view(self.shape),)


def trace(input):
    """Sum of the main diagonal of a 2-d tensor (TraceBackward0); integer inputs sum to int64."""
    _need_tensor("trace", "input", 1, input)
    if input._data.ndim != 2:
        raise _runtime(f"trace: expected a matrix, but got tensor with dim {input._data.ndim}")
    if input._dtype is dt.bool_:  # PyTorch's CPU trace kernel has no bool dispatch
        raise _runtime("\"trace\" not implemented for 'Bool'")
    odt = input._dtype if input._dtype.is_floating_point else dt.int64
    data = np.asarray(np.trace(input._data, dtype=odt.np))
    out, node = record(TraceBackward0, data, odt, (input,))
    if node is not None:
        node.shape = input._data.shape
    return out


class DiagEmbedBackward0(Node):
    __slots__ = ("offset",)
    formula = "self: grad.diagonal(offset, dim1, dim2)"

    def apply(self, grads):
        return (diagonal(grads[0], self.offset, 0, 1),)


DiagonalBackward0_copy = type("DiagonalBackward0_copy", (DiagonalBackward0,), {"__slots__": ()})


def diag(input, diagonal: int = 0):
    """torch.diag: a 1-d input (n,) becomes the (n + |k|, n + |k|) matrix with it on diagonal k (PyTorch's
    diag_embed, DiagEmbedBackward0); a 2-d input gives a copy of its diagonal k (diagonal_copy,
    DiagonalBackward0_copy). Any dtype; other ranks are PyTorch's RuntimeError
    "diag(): Supports 1D or 2D tensors. Got ND" (aten/src/ATen/native/TensorShape.cpp)."""
    _need_tensor("diag", "input", 1, input)
    check_int("diag", "diagonal", diagonal)
    a = input._data
    if a.ndim == 1:
        n = a.shape[0] + abs(diagonal)
        data = np.zeros((n, n), dtype=a.dtype)
        if a.shape[0]:
            _diag_view(data, diagonal, 0, 1)[...] = a
        out, node = record(DiagEmbedBackward0, data, input._dtype, (input,))
        if node is not None:
            node.offset = diagonal
        return out
    if a.ndim == 2:
        data = np.ascontiguousarray(_diag_view(a, diagonal, 0, 1))
        out, node = record(DiagonalBackward0_copy, data, input._dtype, (input,))
        if node is not None:
            node.shape, node.offset, node.d1, node.d2 = a.shape, diagonal, 0, 1
        return out
    raise _runtime(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")


# --- roll -----------------------------------------------------------------------------------------------------


class RollBackward0(Node):
    __slots__ = ("dims", "shifts")
    formula = "self: grad.roll(-shifts, dims)"

    def apply(self, grads):
        return (roll(grads[0], tuple(-s for s in self.shifts), self.dims),)


def roll(input, shifts, dims=None):
    """Rotate entries along dims by shifts (the flattened tensor when dims is None) (RollBackward0)."""
    _need_tensor("roll", "input", 1, input)
    check_ints("roll", "shifts", shifts)
    if dims is not None:
        check_ints("roll", "dims", dims)
    sh = tuple(shifts) if isinstance(shifts, (list, tuple)) else (shifts,)
    if not sh:
        raise _runtime("`shifts` required")
    if dims is None:
        dd = None
        if len(sh) != 1:
            raise _runtime(f"shifts and dimensions must align. shifts: {len(sh)}, dims:0")
    else:
        dd = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
        if not dd and len(sh) == 1:  # PyTorch: one shift with empty dims rolls the flattened tensor
            dd = None
        elif len(sh) != len(dd):
            raise _runtime(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(dd)}")
        if dd is not None:
            if not input._data.ndim:
                raise ArgumentIndexError(f"Dimension specified as {dd[0]} but tensor has no dimensions")
            dd = tuple(_wrap(d, input._data.ndim) for d in dd)
    a = input._data
    if dd is None:
        data = np.roll(a.reshape(-1), sh[0]).reshape(a.shape)
    else:
        data = np.roll(a, sh, axis=dd)
    # (ascontiguousarray alone would make a 0-d result 1-d)
    out, node = record(RollBackward0, np.ascontiguousarray(data).reshape(a.shape), input._dtype, (input,))
    if node is not None:
        node.shifts, node.dims = sh, dd
    elif dd is None:  # PyTorch rolls the flattened tensor and views it back
        out = composite_view(out, input, (a.size,))
    return out


# --- lerp / hypot / atan2 ----------------------------------------------------------------------------------------


class LerpBackward0(Node):
    __slots__ = ("weight",)
    formula = "self: grad * (1 - weight); end: grad * weight"

    def apply(self, grads):
        g = grads[0]
        w = self.weight
        n = self._needs
        return (g * (1 - w) if n[0] else None, g * w if n[1] else None)


class LerpBackward1(Node):
    __slots__ = ()
    _pack_order = (1, 0, 2)  # PyTorch saves inputs by name
    formula = "self: grad * (1 - weight); end: grad * weight; weight: grad * (end - self)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        w = self._unpack(2)
        gs = g * (1 - w) if n[0] else None
        ge = g * w if n[1] else None
        gw = g * (self._unpack(1) - self._unpack(0)) if n[2] else None
        return (gs, ge, gw)


def lerp(input, end, weight):
    """input + weight * (end - input), computed as PyTorch (from the nearer end when |weight| >= 0.5)
    (LerpBackward0 for a number weight, LerpBackward1 for a tensor weight)."""
    _need_tensor("lerp", "input", 1, input)
    _need_tensor("lerp", "end", 2, end)
    if not input._dtype.is_floating_point:
        raise _runtime(f"\"lerp_kernel_scalar\" not implemented for '{_TN[input._dtype.name]}'")
    if end._dtype is not input._dtype:
        raise _runtime(f"expected dtype {_CPP[input._dtype.name]} for `end` but got dtype {_CPP[end._dtype.name]}")
    wt = weight if isinstance(weight, Tensor) else None
    if wt is None and (isinstance(weight, bool) or not isinstance(weight, (int, float))):
        raise ArgumentTypeError(f"lerp(): argument 'weight' must be Number or Tensor, not {type(weight).__name__}")
    if wt is not None and wt._dtype is not input._dtype:
        raise _runtime(f"expected dtype {_CPP[input._dtype.name]} for `weight` but got dtype {_CPP[wt._dtype.name]}")
    shapes = [input._data.shape, end._data.shape] + ([wt._data.shape] if wt is not None else [])
    shape = broadcast_shapes(*shapes)
    a, b = input._data, end._data
    w = wt._data if wt is not None else np.asarray(weight, dtype=a.dtype)
    with np.errstate(all="ignore"):
        diff = b - a
        if a.dtype == np.float32 or a.dtype == np.float64:
            # lerp_vec / the contracted scalar lerp: one fused multiply-add from the nearer end (autograd/fma.py)
            if wt is None:
                data = _fma.fma(w, diff, a, a.dtype) if abs(w) < 0.5 else _fma.fma(w - 1, diff, b, a.dtype)
            else:
                data = np.where(np.abs(w) < 0.5, _fma.fma(w, diff, a, a.dtype), _fma.fma(w - 1, diff, b, a.dtype))
        else:
            data = np.where(np.abs(w) < 0.5, a + w * diff, b - diff * (1 - w)).astype(a.dtype, copy=False)
    data = np.broadcast_to(data, shape).copy()
    if wt is None:
        out, node = record(LerpBackward0, data, input._dtype, (input, end))
        if node is not None:
            node.weight = weight
    else:
        out, node = record(LerpBackward1, data, input._dtype, (input, end, wt))
        if node is not None:
            node._save(saved(input, wt._requires_grad), saved(end, wt._requires_grad), saved(wt))
    return out


class HypotBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0, 2)  # PyTorch saves inputs by name
    formula = "self: grad * self / result; other: grad * other / result"

    def apply(self, grads):
        g = grads[0]
        r = self._unpack(2)
        n = self._needs
        return (g * self._unpack(0) / r if n[0] else None, g * self._unpack(1) / r if n[1] else None)


def hypot(input, other):
    """sqrt(input**2 + other**2) elementwise with broadcasting (HypotBackward0); floating tensors only."""
    from ._core import SavedTensor

    _need_tensor("hypot", "input", 1, input)
    _need_tensor("hypot", "other", 2, other)
    dtype = result_dtype(input, other)
    if not dtype.is_floating_point:
        raise _runtime(f"\"hypot_cpu\" not implemented for '{_TN[dtype.name]}'")
    try:
        data = np.hypot(input._data.astype(dtype.np), other._data.astype(dtype.np))
    except ValueError:
        raise shape_error(input._data.shape, other._data.shape) from None
    out, node = record(HypotBackward0, np.asarray(data, dtype=dtype.np), dtype, (input, other))
    if node is not None:
        # each input is saved only for its own derivative (as PyTorch: an inference tensor or an in-place
        # change of the other operand does not matter)
        node._save(saved(input, input.requires_grad), saved(other, other.requires_grad),
                   SavedTensor(out, is_output=True))
    return out


class Atan2Backward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad * other / (self^2 + other^2); other: grad * -self / (self^2 + other^2) (0 at (0, 0))"

    def apply(self, grads):
        from .elementwise import where

        g = grads[0]
        a = self._unpack(0)
        b = self._unpack(1)
        n = self._needs
        recip = (a * a + b * b).reciprocal()
        recip = where(Tensor._from_data(np.isinf(recip._data), dt.bool_), 0.0, recip)
        return (g * b * recip if n[0] else None, g * -a * recip if n[1] else None)


def atan2(input, other):
    """The angle of (other, input): atan(input / other) in the right quadrant (Atan2Backward0); ints give the
    default float dtype."""
    _need_tensor("atan2", "input", 1, input)
    _need_tensor("atan2", "other", 2, other)
    dtype = result_dtype(input, other)
    if not dtype.is_floating_point:
        dtype = dt.get_default_dtype()
    try:
        data = np.arctan2(input._data.astype(dtype.np), other._data.astype(dtype.np))
    except ValueError:
        raise shape_error(input._data.shape, other._data.shape) from None
    out, node = record(Atan2Backward0, np.asarray(data, dtype=dtype.np), dtype, (input, other))
    if node is not None:
        node._save(saved(input), saved(other))
    return out


# --- registration -----------------------------------------------------------------------------------------------------


def _f64(*shape, lo=-1.0, hi=1.0, seed=0):
    from .creation import tensor

    rng = np.random.default_rng(seed + 13 * len(shape) + sum(shape))
    return tensor(rng.uniform(lo, hi, size=shape).tolist(), dtype=dt.float64, requires_grad=True)


def _long(values):
    return Tensor._from_data(np.asarray(values, dtype=np.int64), dt.int64)


def _bool(values):
    return Tensor._from_data(np.asarray(values, dtype=bool), dt.bool_)


register("masked_fill", masked_fill, "misc", nodes=("MaskedFillBackward0", "MaskedFillBackward1"),
         formula=MaskedFillBackward1.formula,
         sample=lambda: ((_f64(2, 3), _bool([[True, False, True], [False, False, True]]), 0.5), {}))
register("index_select", index_select, "misc", nodes=("IndexSelectBackward0",), formula=IndexSelectBackward0.formula,
         sample=lambda: ((_f64(3, 4), 1, _long([0, 2, 2])), {}))
register("gather", gather, "misc", nodes=("GatherBackward0",), formula=GatherBackward0.formula,
         sample=lambda: ((_f64(3, 4), 1, _long([[0, 0], [1, 3], [2, 2]])), {}))
register("tril", tril, "misc", nodes=("TrilBackward0",), formula=TrilBackward0.formula,
         sample=lambda: ((_f64(3, 4),), {"diagonal": 1}))
register("triu", triu, "misc", nodes=("TriuBackward0",), formula=TriuBackward0.formula,
         sample=lambda: ((_f64(2, 3, 3),), {}))
register("diagonal", diagonal, "misc", nodes=("DiagonalBackward0",), formula=DiagonalBackward0.formula,
         sample=lambda: ((_f64(2, 3, 4),), {"offset": 1, "dim1": 1, "dim2": 2}))
register("diag", diag, "misc", nodes=("DiagEmbedBackward0", "DiagonalBackward0_copy"),
         formula=DiagEmbedBackward0.formula + "; 2-d: diagonal_backward(grad, sizes, offset, 0, 1)",
         sample=lambda: ((_f64(3),), {"diagonal": 1}))
register("trace", trace, "misc", nodes=("TraceBackward0",), formula=TraceBackward0.formula,
         sample=lambda: ((_f64(3, 4),), {}))
register("roll", roll, "misc", nodes=("RollBackward0",), formula=RollBackward0.formula,
         sample=lambda: ((_f64(3, 4), (1, -1), (0, 1)), {}))
register("lerp", lerp, "misc", nodes=("LerpBackward0", "LerpBackward1"), formula=LerpBackward1.formula,
         sample=lambda: ((_f64(2, 3), _f64(3, seed=1), _f64(2, 3, lo=0.0, hi=1.0, seed=2)), {}))
register("hypot", hypot, "misc", nodes=("HypotBackward0",), formula=HypotBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=0.5, hi=2.0), _f64(3, lo=0.5, hi=2.0, seed=1)), {}))
register("atan2", atan2, "misc", torch=("atan2", "arctan2"), methods=("atan2", "arctan2"),
         nodes=("Atan2Backward0",), formula=Atan2Backward0.formula,
         sample=lambda: ((_f64(2, 3), _f64(2, 3, seed=1)), {}))
_ = math
