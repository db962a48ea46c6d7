"""scatter / scatter_add and their in-place forms (``Tensor.scatter_`` is in the top of docs/OPS_FREQUENCY.md).

PyTorch 2.13 (derivatives.yaml; TensorAdvancedIndexing.cpp's checks, in its order):

* ``scatter(self, dim, index, src)``: ScatterBackward0; self: ``grad.scatter(dim, index, 0)``, src:
  ``grad.gather(dim, index)`` (a src larger than index then fails the backward: the engine's
  "returned an invalid gradient" check, as in PyTorch);
* ``scatter(self, dim, index, value)``: ScatterBackward1; self: ``grad.scatter(dim, index, 0)``;
* ``scatter_add(self, dim, index, src)``: ScatterAddBackward0; self: ``grad``, src: ``grad.gather(dim, index)``.
* ``index_fill(self, dim, index, value)``: IndexFillBackward0 (a number) / IndexFillBackward1 (a 0-d tensor);
  self: ``grad.index_fill(dim, index, 0)``, value: ``grad.index_select(dim, index).sum()``;
* ``index_copy(self, dim, index, source)``: IndexCopyBackward0; self: ``grad.index_fill(dim, index, 0)``, source:
  ``grad.index_select(dim, index)`` shaped as source (a 0-d source or index as PyTorch reads them).

The index is saved (version-checked); duplicates keep the last write for scatter (the CPU loop's order) and
add for scatter_add.  ``reduce=`` (deprecated in PyTorch) is not supported.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, TORCH_DTYPE_NAMES, error_class
from ._core import Node, Tensor, dt, record, saved
from .inplace import apply_inplace
from .misc import _along, _wrap, gather, index_select
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


class IndexFillBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad.index_fill(dim, index, 0)"

    def apply(self, grads):
        return (index_fill(grads[0], self.dim, self._unpack(0), 0),)


class IndexFillBackward1(Node):
    __slots__ = ("dim",)
    formula = "self: grad.index_fill(dim, index, 0); value: grad.index_select(dim, std::get<0>(at::_unique(index, "
    "false))).sum()"

    def apply(self, grads):
        g = grads[0]
        index = self._unpack(0)
        n = self._needs
        gs = index_fill(g, self.dim, index, 0) if n[0] else None
        gv = None
        if len(n) > 1 and n[1]:
            idx = np.unique(index._data.reshape(-1))
            gv = index_select(g, self.dim, Tensor._from_data(idx, dt.int64)).sum()
        return (gs, gv)


def index_fill(input, dim, index, value):
    """``input`` with the slices at ``index`` along ``dim`` set to ``value`` (a number: IndexFillBackward0, a
    0-d tensor: IndexFillBackward1); a negative index counts from the end.  Raises PyTorch's errors: IndexError
    for a non-int64 index or one out of bounds, runtime for a 2-d index or a value tensor that is not 0-d."""
    for pos, (arg, v) in enumerate((("input", input), ("index", index))):
        if not isinstance(v, Tensor):
            raise ArgumentTypeError(f"index_fill(): argument '{arg}' (position {2 * pos + 1}) must be Tensor, not "
                                    f"{getattr(type(v), '_gradcli_type_name', type(v).__name__)}")
    if not isinstance(value, (Tensor,) + _NUMBERS):
        raise ArgumentTypeError(f"index_fill(): argument 'value' (position 4) must be Number, not "
                                f"{getattr(type(value), '_gradcli_type_name', type(value).__name__)}")
    d = _wrap(dim, input._data.ndim)
    if index._dtype is not dt.int64:
        raise ArgumentIndexError("index_fill_(): Expected dtype int64 for index.")
    if index._data.ndim > 1:
        raise _runtime("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value._data.ndim:
        raise _runtime("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                       f"{value._data.ndim} dimension(s).")
    data = np.array(input._data, copy=True)
    flat = data.reshape(1) if data.ndim == 0 else data
    size = flat.shape[d]
    idx = index._data.reshape(-1)
    for i in idx.tolist():
        if not -size <= i < size:
            raise ArgumentIndexError(f"index {i} is out of bounds for dimension {d} with size {size}")
    fill = value._data if isinstance(value, Tensor) else value
    flat[(slice(None),) * d + (idx % size if idx.size else idx,)] = np.asarray(fill).astype(data.dtype)
    if isinstance(value, Tensor):
        out, node = record(IndexFillBackward1, data, input._dtype, (input, value),
                           wrapped_number=not index._inference)
    else:
        out, node = record(IndexFillBackward0, data, input._dtype, (input,), wrapped_number=not index._inference)
    if node is not None:
        node.dim = d
        node._save(saved(index))
    return out


def index_fill_(self, dim, index, value):
    """Tensor.index_fill_: index_fill written into self."""
    return apply_inplace(self, lambda old: index_fill(old, dim, index, value))


class IndexCopyBackward0(Node):
    __slots__ = ("dim", "source_dim", "source_shape")
    formula = "self: grad.index_fill(dim, index, 0); source: grad.index_select(dim, index) (as source's shape)"

    def apply(self, grads):
        g = grads[0]
        index = self._unpack(0)
        n = self._needs
        gs = gsrc = None
        if n[0]:
            gs = index_fill(g, self.dim, index, 0)
        if len(n) > 1 and n[1]:
            gsrc = index_select(g, self.dim, index)
            if self.source_dim:  # derivatives.yaml: grad.index_select(dim, index).expand_as(source)
                gsrc = gsrc.expand(self.source_shape)
            elif gsrc._data.shape != ():
                gsrc = gsrc.reshape(())
        return (gs, gsrc)


def _index_copy_checks(self, dim, index, source) -> int:
    """PyTorch 2.13's index_copy meta function and kernel checks, in their order; returns the wrapped dim."""
    for pos, (arg, v) in enumerate((("index", index), ("source", source))):
        if not isinstance(v, Tensor):
            raise ArgumentTypeError(f"index_copy_(): argument '{arg}' (position {pos + 2}) must be Tensor, not "
                                    f"{getattr(type(v), '_gradcli_type_name', type(v).__name__)}")
    d = _wrap(dim, self._data.ndim)
    if index._data.ndim >= 2:
        raise ArgumentIndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index._data.ndim})")
    n = index._data.size
    sd, nd = source._data.ndim, self._data.ndim
    if sd == 0 and n != 1:
        raise ArgumentIndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
    if sd != nd and sd != 0 and nd != 0:
        raise ArgumentIndexError("index_copy_(): When source and destination are not scalars, their dimensionality "
                                 f"must match. Source dimensionality ({sd}), destination dimensionality ({nd})")
    if index._dtype is not dt.int64:
        raise _runtime(f"index_copy_(): Expected a long tensor for index, but got {TORCH_DTYPE_NAMES[index._dtype.name][1]}")
    if self._dtype is not source._dtype:
        raise _runtime(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                       f"{TORCH_DTYPE_NAMES[self._dtype.name][1]} and (source) "
                       f"{TORCH_DTYPE_NAMES[source._dtype.name][1]}")
    ss = [k for i, k in enumerate(self._data.shape) if i != d]
    sr = [k for i, k in enumerate(source._data.shape) if i != d]
    if ss != sr:
        raise _runtime("index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                       f"shape: {' '.join(map(str, ss))} at dimension {d} and source slice shape: "
                       f"{' '.join(map(str, sr))} at dimension 0.")
    if sd and n != source._data.shape[d]:
        raise ArgumentIndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
                                 f"({source._data.shape[d]})")
    size = self._data.shape[d] if nd else 1
    for i in index._data.reshape(-1).tolist():
        if not 0 <= i < size:
            raise ArgumentIndexError(f"index_copy_(): index {i} is out of bounds for dimension {d} with size {size}")
    return d


def index_copy(input, dim, index, source):
    """``input`` with the slices ``source`` copied at ``index`` along ``dim`` (IndexCopyBackward0); a repeated
    index keeps the last slice.  index: a 0-d or 1-d int64 tensor.  Raises PyTorch's IndexError / runtime
    errors (see _index_copy_checks)."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"index_copy(): argument 'input' (position 1) must be Tensor, not "
                                f"{getattr(type(input), '_gradcli_type_name', type(input).__name__)}")
    d = _index_copy_checks(input, dim, index, source)
    data = np.array(input._data, copy=True)
    flat = data.reshape(1) if data.ndim == 0 else data
    src = source._data
    idx = index._data.reshape(-1)
    if src.ndim == 0 or data.ndim == 0:
        flat[(slice(None),) * d + (idx,)] = src.reshape(-1) if src.ndim else src
    else:
        for k, i in enumerate(idx.tolist()):  # in order: a repeated index keeps the last slice (CPU loop)
            flat[(slice(None),) * d + (i,)] = np.take(src, k, axis=d)
    out, node = record(IndexCopyBackward0, data, input._dtype, (input, source), wrapped_number=not index._inference)
    if node is not None:
        node.dim, node.source_dim, node.source_shape = d, source._data.ndim, tuple(source._data.shape)
        node._save(saved(index))
    return out


def index_copy_(self, dim, index, source):
    """Tensor.index_copy_: index_copy written into self (leaf_inplace first, as PyTorch's autograd checks)."""
    return apply_inplace(self, lambda old: index_copy(old, dim, index, source),
                         src=source if isinstance(source, Tensor) else None)


def _sample_scatter():
    from .misc import _f64, _long

    return (_f64(2, 3), 0, _long([[1, 0, 1]]), _f64(1, 3, seed=1)), {}


register("scatter", scatter, "misc", nodes=("ScatterBackward0", "ScatterBackward1"),
         formula=ScatterBackward0.formula, sample=_sample_scatter)
register("scatter_add", scatter_add, "misc", nodes=("ScatterAddBackward0",), formula=ScatterAddBackward0.formula,
         sample=_sample_scatter)
register("scatter_", scatter_, "inplace", torch=(), formula="as scatter")
register("scatter_add_", scatter_add_, "inplace", torch=(), formula="as scatter_add")
register("index_fill", index_fill, "misc", nodes=("IndexFillBackward0", "IndexFillBackward1"),
         formula=IndexFillBackward1.formula, sample=lambda: _sample_index_fill())
register("index_fill_", index_fill_, "inplace", torch=(), formula="as index_fill")
register("index_copy", index_copy, "misc", nodes=("IndexCopyBackward0",), formula=IndexCopyBackward0.formula,
         sample=lambda: _sample_index_copy())
register("index_copy_", index_copy_, "inplace", torch=(), formula="as index_copy")


def _sample_index_copy():
    from .misc import _f64, _long

    return (_f64(3, 4), 0, _long([2, 0]), _f64(2, 4, seed=1)), {}


def _sample_index_fill():
    from .misc import _f64, _long

    v = Tensor._from_data(np.array(0.7), dt.float64)
    v.requires_grad_(True)
    return (_f64(3, 4), 1, _long([2, 0]), v), {}
