"""scatter / scatter_add and their in-place forms (``Tensor.scatter_`` is in the top of docs/OPS_FREQUENCY.md).

PyTorch 2.13 (derivatives.yaml; TensorAdvancedIndexing.cpp's checks, in its order):

* ``scatter(self, dim, index, src)``: ScatterBackward0; self: ``grad.scatter(dim, index, 0)``, src:
  ``grad.gather(dim, index)`` (a src larger than index then fails the backward: the engine's
  "returned an invalid gradient" check, as in PyTorch);
* ``scatter(self, dim, index, value)``: ScatterBackward1; self: ``grad.scatter(dim, index, 0)``;
* ``scatter_add(self, dim, index, src)``: ScatterAddBackward0; self: ``grad``, src: ``grad.gather(dim, index)``.

The index is saved (version-checked); duplicates keep the last write for scatter (the CPU loop's order) and
add for scatter_add.  ``reduce=`` (deprecated in PyTorch) is not supported.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentTypeError, error_class
from ._core import Node, Tensor, dt, record, saved
from .inplace import apply_inplace
from .misc import _along, _wrap, gather
from .registry import register

_NUMBERS = (bool, int, float)


def _runtime(msg: str):
    return error_class("runtime")(msg)


def _check(name: str, input, dim, index, src) -> tuple:
    """PyTorch's scatter checks; returns (dim, index array)."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(index, Tensor):
        raise ArgumentTypeError(f"{name}(): argument 'index' (position 3) must be Tensor, not {type(index).__name__}")
    d = _wrap(dim, input._data.ndim)
    if index._dtype not in (dt.int64, dt.int32):
        raise _runtime(f"{name.rstrip('_')}(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src._dtype is not input._dtype:
        raise _runtime(f"{name.rstrip('_')}(): Expected self.dtype to be equal to src.dtype")
    a, idx = input._data, index._data.astype(np.int64)
    nd = max(a.ndim, 1)
    if max(idx.ndim, 1) != nd or (isinstance(src, Tensor) and max(src._data.ndim, 1) != nd):
        raise _runtime("Index tensor must have the same number of dimensions as self tensor")
    ishape = idx.shape if idx.ndim else (1,)
    sshape = a.shape if a.ndim else (1,)
    srcshape = (src._data.shape if src._data.ndim else (1,)) if isinstance(src, Tensor) else None
    for k in range(nd):
        if (k != d and ishape[k] > sshape[k]) or (srcshape is not None and ishape[k] > srcshape[k]):
            tail = f" and to be no larger size than src {list(srcshape)}" if srcshape is not None else ""
            raise _runtime(f"Expected index {list(ishape)} to be no larger than self {list(sshape)} apart from "
                           f"dimension {d}{tail}")
    if idx.size:
        size = sshape[d]
        bad = idx[(idx < 0) | (idx >= size)]
        if bad.size:
            raise _runtime(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {d} with size {size}")
    return d, idx


class ScatterBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad.scatter(dim, index, 0); src: grad.gather(dim, index)"

    def apply(self, grads):
        g = grads[0]
        index = self._unpack(0)
        n = self._needs
        gs = scatter(g, self.dim, index, 0.0) if n[0] else None
        gsrc = gather(g, self.dim, index) if len(n) > 1 and n[1] else None
        return (gs, gsrc)


class ScatterBackward1(Node):
    __slots__ = ("dim",)
    formula = "self: grad.scatter(dim, index, 0)"

    def apply(self, grads):
        return (scatter(grads[0], self.dim, self._unpack(0), 0.0),)


class ScatterAddBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad; src: grad.gather(dim, index)"

    def apply(self, grads):
        g = grads[0]
        index = self._unpack(0)
        n = self._needs
        return (g if n[0] else None, gather(g, self.dim, index) if len(n) > 1 and n[1] else None)


def _write(a: np.ndarray, d: int, idx: np.ndarray, src, add: bool) -> np.ndarray:
    out = np.array(a, copy=True)
    if not idx.size:
        return out
    flat = out.reshape(1) if out.ndim == 0 else out
    ix = idx.reshape(1) if idx.ndim == 0 else idx
    where = _along(ix, d)
    if isinstance(src, Tensor):
        s = src._data.reshape(1) if src._data.ndim == 0 else src._data
        vals = s[tuple(slice(0, n) for n in ix.shape)]
    else:
        vals = np.asarray(src, dtype=out.dtype)
    if add:
        np.add.at(flat, where, vals)
    else:
        flat[where] = vals  # duplicates: the last write stays, as PyTorch's CPU loop
    return out


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """self with ``src`` (a tensor, or a number) written at ``index`` along ``dim`` (ScatterBackward0 /
    ScatterBackward1).  Raises runtime for a non-integer index, mismatched dims or sizes, an index out of
    bounds, a src of another dtype; TypeError for a non-tensor input or index."""
    if value is not None and src is None:
        src = value
    if reduce is not None:
        raise error_class("unsupported")("scatter(reduce=...) is not supported by gradcli (PyTorch deprecates it; "
                                         "use scatter_add)")
    if not isinstance(src, (Tensor,) + _NUMBERS):
        raise ArgumentTypeError(f"scatter(): argument 'src' must be Tensor or Number, not {type(src).__name__}")
    d, idx = _check("scatter", input, dim, index, src)
    data = _write(input._data, d, idx, src, add=False)
    if isinstance(src, Tensor):
        out, node = record(ScatterBackward0, data, input._dtype, (input, src), wrapped_number=not index._inference)
    else:
        out, node = record(ScatterBackward1, data, input._dtype, (input,), wrapped_number=not index._inference)
    if node is not None:
        node.dim = d
        node._save(saved(index))
    return out


def scatter_add(input, dim, index, src):
    """self with ``src`` added at ``index`` along ``dim`` (ScatterAddBackward0); the checks of scatter."""
    if not isinstance(src, Tensor):
        raise ArgumentTypeError(f"scatter_add(): argument 'src' (position 4) must be Tensor, not {type(src).__name__}")
    d, idx = _check("scatter_add", input, dim, index, src)
    data = _write(input._data, d, idx, src, add=True)
    out, node = record(ScatterAddBackward0, data, input._dtype, (input, src), wrapped_number=not index._inference)
    if node is not None:
        node.dim = d
        node._save(saved(index))
    return out


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    """Tensor.scatter_: scatter written into self (leaf_inplace on a leaf that requires grad)."""
    return apply_inplace(self, lambda old: scatter(old, dim, index, src, value=value, reduce=reduce),
                         src=src if isinstance(src, Tensor) else None)


def scatter_add_(self, dim, index, src):
    """Tensor.scatter_add_: scatter_add written into self."""
    return apply_inplace(self, lambda old: scatter_add(old, dim, index, src), src=src)


def _sample_scatter():
    from .misc import _f64, _long

    return (_f64(2, 3), 0, _long([[1, 0, 1]]), _f64(1, 3, seed=1)), {}


register("scatter", scatter, "misc", nodes=("ScatterBackward0", "ScatterBackward1"),
         formula=ScatterBackward0.formula, sample=_sample_scatter)
register("scatter_add", scatter_add, "misc", nodes=("ScatterAddBackward0",), formula=ScatterAddBackward0.formula,
         sample=_sample_scatter)
register("scatter_", scatter_, "inplace", torch=(), formula="as scatter")
register("scatter_add_", scatter_add_, "inplace", torch=(), formula="as scatter_add")
