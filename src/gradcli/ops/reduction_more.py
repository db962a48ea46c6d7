"""More reductions: prod, max/min (full, per dim, binary), amax/amin, argmax/argmin, norm, var/std,
logsumexp, cumsum/cumprod.

Node names and conventions are PyTorch 2.13's (tools/autograd/derivatives.yaml, FunctionsManual.cpp):

* full ``max()``/``min()`` (MaxBackward1/MinBackward1) and ``amax``/``amin`` (AmaxBackward0/AminBackward0)
  split the gradient evenly among ties (``evenly_distribute_backward`` / ``scale_grad_by_count``); a NaN
  maximum sends the gradient to the NaN entries;
* ``max(dim)``/``min(dim)`` return ``torch.return_types.max(values=..., indices=...)`` (a tuple with
  ``.values``/``.indices``) and send the gradient to the selected index only (MaxBackward0/MinBackward0);
  the index of the first occurrence is selected, as PyTorch's CPU kernel does;
* ``max(other)``/``min(other)`` are ``maximum``/``minimum``;
* ``prod`` (ProdBackward0 full, ProdBackward1 with dim) uses ``grad * result / input`` when there is no
  zero and the exclusive-cumprod formula (``prod_safe_zeros_backward``) otherwise;
* ``norm`` is ``linalg.vector_norm`` (LinalgVectorNormBackward0) for p = 'fro', numbers, inf, -inf; the
  gradient is 0 at the zero vector, None for p = 0 (as PyTorch's ``norm_backward``);
* ``var``/``std`` (VarBackward0/StdBackward0) take ``correction`` or ``unbiased``; with zero or negative
  degrees of freedom they warn (kind ``other``) and divide by max(0, N - correction) (nan/inf);
* ``logsumexp`` (LogsumexpBackward0) is computed with the max subtracted (infinite maxima replaced by 0);
* ``cumsum`` (CumsumBackward0) and ``cumprod`` (CumprodBackward0).
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, error_class, warn
from ._core import Node, SavedTensor, Tensor, dt, record, saved
from .reduction import check_out_variant, normalize_dims
from .registry import REGISTRY, register

__all__ = [
    "ReturnTuple",
    "amax",
    "amin",
    "argmax",
    "argmin",
    "cumprod",
    "cumsum",
    "logsumexp",
    "max",
    "min",
    "norm",
    "prod",
    "std",
    "var",
]

_TN = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int", "int16": "Short",
       "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _runtime(msg: str, hint: str | None = None):
    return error_class("runtime")(msg, hint)


def _need_tensor(fn: str, x) -> None:
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def _check_int_dim(fn: str, dim) -> None:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise ArgumentTypeError(f"{fn}() received an invalid combination of arguments - got (dim={type(dim).__name__}), "
                        "but expected (int dim, bool keepdim = False)")


def _wrap(dim: int, ndim: int) -> int:
    """dim wrapped into [0, ndim) (a 0-d tensor accepts -1 and 0); IndexError as PyTorch's."""
    n = ndim if ndim else 1
    if not -n <= dim < n:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _unsqueeze_dims(g: Any, dims: tuple, keepdim: bool) -> Any:
    """Re-insert reduced dims (sorted) into g unless keepdim: PyTorch's unsqueeze_multiple."""
    if keepdim:
        return g
    for d in sorted(dims):
        g = g.unsqueeze(d)
    return g


def _saved_out(t: Tensor):
    return SavedTensor(t, is_output=True)


def _zeros_like(t: Tensor) -> Tensor:
    from .creation import zeros_like

    return zeros_like(t)


def _const(data, dtype) -> Tensor:
    return Tensor._from_data(np.asarray(data, dtype=dtype.np), dtype)


def _reduce_dtype(t: Tensor, dtype) -> dt.dtype:
    if dtype is not None:
        if not isinstance(dtype, dt.dtype):
            raise ArgumentTypeError(f"argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
        return dtype
    return t._dtype if t._dtype.is_floating_point else dt.int64


# --- return type of max(dim) / min(dim) -------------------------------------------------------------------


class ReturnTuple(tuple):
    """torch.return_types.max / min: a (values, indices) tuple with named fields."""

    _gradcli_public = frozenset({"values", "indices", "count", "index"})
    _gradcli_type_name = "torch.return_types"
    _name = "max"

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    __str__ = __repr__


def _return_type(name: str) -> type:
    cls = type(name, (ReturnTuple,), {"_name": name, "__module__": "torch.return_types"})
    cls._gradcli_type_name = f"torch.return_types.{name}"  # type: ignore[attr-defined]
    return cls


_RT = {n: _return_type(n) for n in ("max", "min", "sort", "topk", "mode", "median", "kthvalue")}


# --- prod -----------------------------------------------------------------------------------------------------


def _prod_safe_zeros_backward(grad: Any, inp: Any, dim: int) -> Any:
    """grad * (product of the other entries along dim), exact with zeros (exclusive cumprods)."""
    from .creation import ones
    from .shape import cat, flip, narrow

    n = inp._data.shape[dim]
    if inp._data.size == 0:
        return grad.expand_as(inp)
    ones_size = list(inp._data.shape)
    ones_size[dim] = 1
    o = ones(tuple(ones_size), dtype=grad._dtype)
    exclusive_normal = cumprod(cat([o, narrow(inp, dim, 0, n - 1)], dim), dim)
    narrow_reverse = flip(narrow(inp, dim, 1, n - 1), [dim])
    exclusive_reverse = flip(cumprod(cat([o, narrow_reverse], dim), dim), [dim])
    return grad * (exclusive_normal * exclusive_reverse)


class ProdBackward0(Node):
    __slots__ = ()
    formula = "self: grad * result / self (exclusive products where self has zeros)"

    def apply(self, grads):
        g = grads[0]
        inp = self._unpack(0)
        res = self._unpack(1)
        if inp._data.ndim == 0:
            return (g,)
        if inp._dtype is not g._dtype:  # prod(dtype=...): PyTorch differentiates self.to(grad's dtype)
            inp = inp.to(g._dtype)
        nz = int(np.count_nonzero(inp._data == 0))
        if nz == 0:
            return (g * (res / inp),)
        if nz > 1 and not _grad_enabled():
            return (_zeros_like(inp),)
        flat = inp.contiguous().view(-1)
        return (_prod_safe_zeros_backward(g, flat, 0).view(inp._data.shape),)


class ProdBackward1(Node):
    __slots__ = ("dim", "keepdim")
    formula = "self: grad * result / self along dim (exclusive products where self has zeros)"

    def apply(self, grads):
        g = grads[0]
        inp = self._unpack(0)
        res = self._unpack(1)
        if inp._data.ndim == 0:
            return (g,)
        if inp._dtype is not g._dtype:
            inp = inp.to(g._dtype)
        if not self.keepdim:
            g = g.unsqueeze(self.dim)
            res = res.unsqueeze(self.dim)
        if not np.any(inp._data == 0):
            return (g * (res / inp),)
        return (_prod_safe_zeros_backward(g, inp, self.dim),)


def _grad_enabled() -> bool:
    from ..autograd.grad_mode import state

    return state.enabled


def prod(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Product of all elements (ProdBackward0) or along one dim (ProdBackward1); ints/bools -> int64."""
    _need_tensor("prod", input)
    if isinstance(dim, dt.dtype):  # prod(dtype) positional is not PyTorch's signature; accept as keyword only
        raise ArgumentTypeError("prod(): argument 'dim' must be int, not torch.dtype")
    odt = _reduce_dtype(input, dtype)
    src = input._data.astype(odt.np, copy=False)
    if dim is None:
        data = np.asarray(np.prod(src, dtype=odt.np))
        out, node = record(ProdBackward0, data, odt, (input,))
        if node is not None:
            node._save(saved(input), _saved_out(out))
        return out
    _check_int_dim("prod", dim)
    d = _wrap(dim, input._data.ndim)
    data = np.asarray(np.prod(src, axis=d if input._data.ndim else None, keepdims=keepdim, dtype=odt.np))
    if input._data.ndim == 0:
        data = data.reshape(())
    out, node = record(ProdBackward1, data, odt, (input,))
    if node is not None:
        node.dim, node.keepdim = d, keepdim
        node._save(saved(input), _saved_out(out))
    return out


# --- max / min --------------------------------------------------------------------------------------------


def _evenly_distribute(g: Any, inp: Tensor, value: Tensor) -> Any:
    from .elementwise import where

    if np.isnan(value._data).any():
        mask = np.isnan(inp._data)
    else:
        mask = inp._data == value._data
    count = int(mask.sum())
    m = _const(mask, dt.bool_)
    return where(m, g / count, 0.0)


class MaxBackward1(Node):
    __slots__ = ()
    formula = "self: evenly_distribute_backward(grad, self, result) (ties share the gradient equally)"

    def apply(self, grads):
        return (_evenly_distribute(grads[0], self._unpack(0), self._unpack(1)),)


class MinBackward1(MaxBackward1):
    __slots__ = ()


class MaxBackward0(Node):
    __slots__ = ("dim", "keepdim", "shape")
    formula = "self: zeros(self.sizes()).scatter(dim, indices, grad) (the gradient goes to the selected index)"

    def apply(self, grads):
        from .misc import scatter_into_zeros

        g = grads[0]
        idx = self._unpack(0)
        if not self.shape:
            return (g,)
        if not self.keepdim:
            g = g.unsqueeze(self.dim)
            idx = Tensor._from_data(np.expand_dims(idx._data, self.dim), idx._dtype)
        return (scatter_into_zeros(g, self.shape, self.dim, idx),)


class MinBackward0(MaxBackward0):
    __slots__ = ()


def _empty_reduce_error(name: str):
    return _runtime(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                    "reduction dim with the 'dim' argument.")


def _minmax_full(input: Tensor, is_max: bool) -> Tensor:
    name = "max" if is_max else "min"
    if input._data.size == 0:
        raise _empty_reduce_error(name)
    a = input._data
    if input._dtype.is_floating_point and np.isnan(a).any():
        data = np.asarray(np.nan, dtype=a.dtype)
    else:
        data = np.asarray(a.max() if is_max else a.min())
    out, node = record(MaxBackward1 if is_max else MinBackward1, data, input._dtype, (input,))
    if node is not None:
        node._save(saved(input), _saved_out(out))
    return out


def _minmax_dim(input: Tensor, dim, keepdim: bool, is_max: bool):
    name = "max" if is_max else "min"
    _check_int_dim(name, dim)
    nd = input._data.ndim
    d = _wrap(dim, nd)
    a = input._data if nd else input._data.reshape(1)
    if a.shape[d] == 0:
        raise ArgumentIndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = np.argmax(a, axis=d) if is_max else np.argmin(a, axis=d)
    if input._dtype.is_floating_point:
        nan = np.isnan(a)
        if nan.any():  # argmax/argmin already pick the first NaN; make sure values are NaN there
            pass
    idx_k = np.expand_dims(idx, d)
    vals = np.take_along_axis(a, idx_k, axis=d)
    if not keepdim:
        vals = np.squeeze(vals, axis=d)
        idx_out = idx
    else:
        idx_out = idx_k
    if nd == 0:
        vals = vals.reshape(())
        idx_out = np.asarray(idx_out).reshape(())
    out, node = record(MaxBackward0 if is_max else MinBackward0, np.asarray(vals), input._dtype, (input,))
    indices = Tensor._from_data(np.asarray(idx_out, dtype=np.int64), dt.int64)
    if node is not None:
        node.dim, node.keepdim, node.shape = d, keepdim, input._data.shape
        node._save(_saved_out(indices))  # saved as an output: changing indices in place is caught
    return _RT[name](out, indices)


def _minmax(input, dim, keepdim, is_max: bool, other=None):
    name = "max" if is_max else "min"
    _need_tensor(name, input)
    if isinstance(dim, Tensor):
        other, dim = dim, None
    if other is not None:
        # other= with a dim, or a number: no signature of PyTorch's parser matches (TypeError)
        if (keepdim is not None and keepdim is not False) or dim is not None or not isinstance(other, Tensor):
            raise ArgumentTypeError(f"{name}() received an invalid combination of arguments")
        from .elementwise import maximum, minimum

        return maximum(input, other) if is_max else minimum(input, other)
    if dim is None:
        if keepdim:
            raise ArgumentTypeError(f"{name}() received an invalid combination of arguments - got (keepdim=bool), but "
                            "expected one of: (), (Tensor other), (int dim, bool keepdim = False)")
        return _minmax_full(input, is_max)
    return _minmax_dim(input, dim, bool(keepdim), is_max)


def max(input, dim=None, keepdim=False, *, other=None):
    """torch.max: the maximum (MaxBackward1; ties share the gradient), or with ``dim`` a
    ``(values, indices)`` pair (MaxBackward0), or with a tensor the elementwise maximum (MaximumBackward0)."""
    return _minmax(input, dim, keepdim, True, other)


def min(input, dim=None, keepdim=False, *, other=None):
    """torch.min: the minimum (MinBackward1), ``(values, indices)`` with ``dim`` (MinBackward0), or the
    elementwise minimum with a tensor (MinimumBackward0)."""
    return _minmax(input, dim, keepdim, False, other)


# --- amax / amin --------------------------------------------------------------------------------------------


class AmaxBackward0(Node):
    __slots__ = ("dims", "keepdim")
    formula = "self: grad * (self == result) / count of ties (scale_grad_by_count)"

    def apply(self, grads):
        g = _unsqueeze_dims(grads[0], self.dims, self.keepdim)
        inp = self._unpack(0)
        res = _unsqueeze_dims(self._unpack(1), self.dims, self.keepdim)
        mask = (res == inp)
        count = mask.sum(dim=self.dims, keepdim=True) if self.dims else mask.to(g._dtype)
        return ((g / count) * mask,)


class AminBackward0(AmaxBackward0):
    __slots__ = ()


def _amaxmin(input, dim, keepdim: bool, is_max: bool):
    name = "amax" if is_max else "amin"
    _need_tensor(name, input)
    nd = input._data.ndim
    if dim is None:
        dim = ()
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    dims = normalize_dims(tuple(dim), nd) if len(dim) else tuple(range(nd))
    if input._data.size == 0 and not len(dim):
        raise _empty_reduce_error(name)
    a = input._data
    for d in dims:
        if a.shape[d] == 0:
            raise ArgumentIndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    fn = np.max if is_max else np.min
    data = np.asarray(fn(a, axis=dims, keepdims=keepdim)) if nd else a.copy()
    out, node = record(AmaxBackward0 if is_max else AminBackward0, data, input._dtype, (input,))
    if node is not None:
        node.dims, node.keepdim = dims, keepdim
        node._save(saved(input), _saved_out(out))
    return out


def amax(input, dim=(), keepdim: bool = False):
    """Maximum over dims (all when dim=()) (AmaxBackward0); ties share the gradient equally."""
    return _amaxmin(input, dim, keepdim, True)


def amin(input, dim=(), keepdim: bool = False):
    """Minimum over dims (all when dim=()) (AminBackward0); ties share the gradient equally."""
    return _amaxmin(input, dim, keepdim, False)


def _argmaxmin(input, dim, keepdim: bool, is_max: bool):
    name = "argmax" if is_max else "argmin"
    _need_tensor(name, input)
    a = input._data
    fn = np.argmax if is_max else np.argmin
    if dim is None:
        if a.size == 0:
            raise _runtime(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        idx = np.asarray(fn(a.reshape(-1)))
        if keepdim:
            idx = idx.reshape((1,) * a.ndim)
        return Tensor._from_data(idx.astype(np.int64), dt.int64)
    _check_int_dim(name, dim)
    d = _wrap(dim, a.ndim)
    if a.ndim == 0:
        return Tensor._from_data(np.asarray(0, dtype=np.int64), dt.int64)
    if a.shape[d] == 0:
        raise ArgumentIndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = fn(a, axis=d)
    if keepdim:
        idx = np.expand_dims(idx, d)
    return Tensor._from_data(np.asarray(idx, dtype=np.int64), dt.int64)


def argmax(input, dim=None, keepdim: bool = False):
    """Index of the maximum (flattened when dim is None); int64, not differentiable."""
    return _argmaxmin(input, dim, keepdim, True)


def argmin(input, dim=None, keepdim: bool = False):
    """Index of the minimum (flattened when dim is None); int64, not differentiable."""
    return _argmaxmin(input, dim, keepdim, False)


# --- norm ----------------------------------------------------------------------------------------------------


class LinalgVectorNormBackward0(Node):
    __slots__ = ("dims", "keepdim", "ord")
    formula = ("self: p=2: grad * self / result (0 where result == 0); p=1: grad * sgn(self); p=inf: evenly among "
               "|self| == result; other p: grad * self * |self|^(p-2) / result^(p-1); p=0: no gradient")

    def apply(self, grads):
        from .elementwise import where

        p = self.ord
        g = grads[0]
        x = self._unpack(0)
        r = self._unpack(1)
        if x._data.ndim:
            g = _unsqueeze_dims(g, self.dims, self.keepdim)
            r = _unsqueeze_dims(r, self.dims, self.keepdim)
        if p == 0.0:
            return (None,)
        if p == 1.0:
            return (x.sign() * g,)
        if p == 2.0:
            return (g * where(r == 0, 0.0, x / r),)
        if math.isinf(p):
            ax = x.abs()
            mask = (ax == r) | _const(np.isnan(ax._data), dt.bool_)
            # sum over dim with keepdim; PyTorch's empty dim list (a full reduction) sums over all dims
            cnt = mask.sum(dim=self.dims or tuple(range(x._data.ndim)), keepdim=True) if x._data.ndim else mask
            return (x.sign() * ((g / cnt) * mask),)
        if p < 1.0:
            scaled = x.sign() * where(x == 0, 0.0, x.abs().pow(p - 1))
            return (scaled * g * r.pow(1 - p),)
        if p < 2.0:
            scaled = x.sign() * x.abs().pow(p - 1)
        else:
            scaled = x * x.abs().pow(p - 2)
        scale_v = where(r == 0, 0.0, g / r.pow(p - 1))
        return (scaled * scale_v,)


def _vector_norm_np(a: np.ndarray, p: float, axis, keepdim: bool) -> np.ndarray:
    ab = np.abs(a)
    if p == 2.0:
        return np.sqrt(np.sum(ab * ab, axis=axis, keepdims=keepdim))
    if p == 1.0:
        return np.sum(ab, axis=axis, keepdims=keepdim)
    if p == math.inf:
        return np.max(ab, axis=axis, keepdims=keepdim, initial=0.0) if ab.size else np.sum(ab, axis=axis,
                                                                                             keepdims=keepdim)
    if p == -math.inf:
        return np.min(ab, axis=axis, keepdims=keepdim)
    if p == 0.0:
        return np.sum(ab != 0, axis=axis, keepdims=keepdim).astype(a.dtype)
    return np.power(np.sum(np.power(ab, p), axis=axis, keepdims=keepdim), 1.0 / p)


class NormBackward1(LinalgVectorNormBackward0):
    """ATen's ``norm.ScalarOpt_dim`` node: C++ composites call ``at::norm(self, p, dim, keepdim)`` (Python's
    torch.norm goes to linalg.vector_norm instead); derivatives.yaml gives both the same ``norm_backward``."""

    __slots__ = ()


def norm_dim(input, p, dim, keepdim: bool = False):
    """``at::norm(input, p, dim, keepdim)`` as ATen's C++ composites (pairwise_distance) call it (NormBackward1)."""
    return _vector_norm(input, p, dim, keepdim, None, NormBackward1)


def vector_norm(input, ord=2, dim=None, keepdim: bool = False, *, dtype=None):
    """torch.linalg.vector_norm: (sum |x|^ord)^(1/ord) over dim (all when None) (LinalgVectorNormBackward0)."""
    return _vector_norm(input, ord, dim, keepdim, dtype, LinalgVectorNormBackward0)


def _vector_norm(input, ord, dim, keepdim: bool, dtype, node_cls) -> Tensor:
    _need_tensor("linalg_vector_norm", input)
    if not input._dtype.is_floating_point:
        raise _runtime("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                       f"{_TN[input._dtype.name]}", "Convert first, e.g. x.float().norm().")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise ArgumentTypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    p = float(ord)
    src = input
    if dtype is not None and dtype is not input._dtype:  # computed in dtype; no ToCopy node, as PyTorch
        if not isinstance(dtype, dt.dtype):
            raise ArgumentTypeError(f"linalg_vector_norm(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
        if not dtype.is_floating_point:
            raise _runtime(f"linalg.vector_norm: dtype should be floating point or complex, but got {dtype}")
        src = Tensor._from_data(input._data.astype(dtype.np), dtype)
    nd = src._data.ndim
    if dim is None:
        dims = tuple(range(nd))
    else:
        dims = normalize_dims(dim if isinstance(dim, (list, tuple)) else (dim,), nd)
    a = src._data
    if p < 0 and a.size == 0:
        raise _runtime(f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
                       "operation does not have an identity")
    with np.errstate(all="ignore"):
        if nd == 0:
            data = _vector_norm_np(a.reshape(1), p, 0, False).reshape(())
        else:
            data = _vector_norm_np(a, p, dims, keepdim)
    out, node = record(node_cls, np.asarray(data, dtype=src._dtype.np), src._dtype, (input,))
    if node is not None:
        node.ord, node.keepdim = p, keepdim
        node.dims = dims if nd and dim is not None else ()  # full reduction: grad stays 0-d, as PyTorch
        node._save(saved(input), _saved_out(out))
    return out


def norm(input, p="fro", dim=None, keepdim: bool = False, out=None, dtype=None):
    """torch.norm / Tensor.norm: 'fro' and numbers (2, 1, inf, -inf, 0, any p) are the vector norm over dim
    (all dims when None) (LinalgVectorNormBackward0).  'nuc' (matrix norms) is not supported."""
    _need_tensor("norm", input)
    if out is not None:
        raise error_class("unsupported")("norm(out=...) is not supported by gradcli")
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype)
        if p == "nuc":
            raise error_class("unsupported")("norm(p='nuc') (the nuclear matrix norm) is not supported by gradcli",
                                             "Use p='fro' or a number.")
        raise _runtime(f"linalg.matrix_norm: Order {p} not supported.")
    return vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype)


# --- var / std ----------------------------------------------------------------------------------------------------


def _var_args(fn: str, dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(unbiased) overload
        if unbiased is not None:
            raise ArgumentTypeError(f"{fn}() received an invalid combination of arguments")
        unbiased, dim = dim, None
    if unbiased is not None and correction is not None:
        raise ArgumentTypeError(f"{fn}() received an invalid combination of arguments - got (correction=..., "
                        "unbiased=...), but expected one of: (tuple of ints dim, bool unbiased = True, bool keepdim "
                        "= False), (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    if not isinstance(correction, (int, float)):
        raise ArgumentTypeError(f"{fn}(): argument 'correction' must be Number, not {type(correction).__name__}")
    return dim, bool(keepdim), correction


class VarBackward0(Node):
    __slots__ = ("correction", "dims", "full", "keepdim")
    formula = "self: (2 / (N - correction)) * grad * (self - self.mean(dim, keepdim=True))"

    def apply(self, grads):
        return (_var_backward(grads[0], self._unpack(0), self.dims, self.correction, self.keepdim, self.full),)


def _var_backward(g: Any, x: Any, dims: tuple, correction, keepdim: bool, full: bool) -> Any:
    from .elementwise import where

    if x._data.ndim == 0 or full:
        dof = x._data.size - correction
        if dof <= 0:
            return g * where(x == x.mean(), math.nan, math.inf)
        return (2.0 / dof) * g * (x - x.mean())
    if not keepdim and x._data.ndim > 1:
        g = _unsqueeze_dims(g, dims, False)
    n = 1
    for d in dims:
        n *= x._data.shape[d]
    return _safe_div(2.0, n - correction) * g * (x - x.mean(dim=dims, keepdim=True))


def _safe_div(a: float, b) -> float:
    """a / b with IEEE semantics (C++ double division): inf/-inf/nan for b == 0."""
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


class StdBackward0(Node):
    __slots__ = ("correction", "dims", "full", "keepdim")
    formula = "self: var_backward(grad / (2 * result), ...) (0 where result == 0)"

    def apply(self, grads):
        from .elementwise import where

        r = self._unpack(1)
        gv = where(r == 0, 0.0, grads[0] / (r * 2))
        return (_var_backward(gv, self._unpack(0), self.dims, self.correction, self.keepdim, self.full),)


def _var_std(input, dim, unbiased, keepdim, correction, is_std: bool):
    name = "std" if is_std else "var"
    _need_tensor(name, input)
    dim, keepdim, correction = _var_args(name, dim, unbiased, keepdim, correction)
    if not input._dtype.is_floating_point:
        raise _runtime("std and var only support floating point and complex dtypes",
                       "Convert first, e.g. x.float().var().")
    nd = input._data.ndim
    full = dim is None
    dims = tuple(range(nd)) if dim is None else normalize_dims(dim if isinstance(dim, (list, tuple)) else (dim,), nd)
    if isinstance(dim, (list, tuple)) and len(dim) == 0:
        dims = tuple(range(nd))
    a = input._data.astype(np.float64)
    n = 1
    for d in dims:
        n *= input._data.shape[d]
    if nd == 0:
        n = 1
    dof = n - correction
    if dof <= 0:
        warn("other", f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).")
    with np.errstate(all="ignore"):
        ax = dims if nd else None
        mean = np.mean(a, axis=ax, keepdims=True) if a.size else np.full([1] * a.ndim, np.nan)
        ss = np.sum((a - mean) ** 2, axis=ax, keepdims=keepdim)
        v = ss / builtins_max(0, dof)
        data = np.sqrt(v) if is_std else v
    if nd == 0 and keepdim:
        data = np.asarray(data).reshape(())
    out, node = record(StdBackward0 if is_std else VarBackward0, np.asarray(data, dtype=input._dtype.np),
                       input._dtype, (input,))
    if node is not None:
        node.dims, node.correction, node.keepdim, node.full = dims, correction, keepdim, full
        node._save(saved(input), _saved_out(out) if is_std else None)  # (var_backward needs no result)
    return out


def builtins_max(a, b):
    return builtins.max(a, b)


def var(input, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """Variance over dim (all when None) with ``correction`` (default 1; ``unbiased=False`` means 0)
    (VarBackward0).  Zero degrees of freedom warn (kind ``other``) and give nan/inf, as PyTorch."""
    if isinstance(input, Tensor) and dim is None:  # (over all dims PyTorch goes through sum(out=))
        check_out_variant(input, "sum")
    return _var_std(input, dim, unbiased, keepdim, correction, False)


def std(input, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """Standard deviation (sqrt of var) (StdBackward0); the gradient is 0 where the result is 0."""
    if isinstance(input, Tensor) and dim is None:  # (over all dims PyTorch goes through sum(out=))
        check_out_variant(input, "sum")
    return _var_std(input, dim, unbiased, keepdim, correction, True)


# --- logsumexp ---------------------------------------------------------------------------------------------------


class LogsumexpBackward0(Node):
    __slots__ = ("dims", "keepdim")
    formula = "self: grad * (self - result).exp() (result unsqueezed at dim unless keepdim)"

    def apply(self, grads):
        x = self._unpack(0)
        r = self._unpack(1)
        g = grads[0]
        if x._data.ndim:
            g = _unsqueeze_dims(g, self.dims, self.keepdim)
            r = _unsqueeze_dims(r, self.dims, self.keepdim)
        return (g * (x - r).exp(),)


def logsumexp(input, dim, keepdim: bool = False):
    """log(sum(exp(input), dim)) computed stably (LogsumexpBackward0); integer inputs give the default float."""
    _need_tensor("logsumexp", input)
    check_out_variant(input, "logsumexp")
    src = input
    if not input._dtype.is_floating_point:
        src = input.to(dt.get_default_dtype())
    nd = src._data.ndim
    dims = normalize_dims(dim if isinstance(dim, (list, tuple)) else (dim,), nd)
    if isinstance(dim, (list, tuple)) and len(dim) == 0:
        dims = tuple(range(nd))
    a = src._data
    with np.errstate(all="ignore"):
        if nd == 0:
            data = a.copy()
        elif a.size == 0:
            data = np.log(np.sum(np.exp(a), axis=dims, keepdims=keepdim))
        else:
            m = np.max(a, axis=dims, keepdims=True)
            m = np.where(np.isinf(m), 0, m).astype(a.dtype)
            s = np.sum(np.exp(a - m), axis=dims, keepdims=True)
            data = np.log(s) + m
            if not keepdim:
                data = np.squeeze(data, axis=dims)
    out, node = record(LogsumexpBackward0, np.asarray(data, dtype=src._dtype.np), src._dtype, (src,))
    if node is not None:
        node.dims, node.keepdim = dims, keepdim
        node._save(saved(src), _saved_out(out))
    return out


# --- cumsum / cumprod ------------------------------------------------------------------------------------------------


class CumsumBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad.flip(dim).cumsum(dim).flip(dim) (reversed cumsum)"

    def apply(self, grads):
        g = grads[0]
        d = self.dim
        if g._data.size <= 1 or g._data.ndim == 0 or g._data.shape[d] == 1:
            return (g,)
        return (_reversed_cumsum(g, d),)


def _reversed_cumsum(g: Tensor, d: int) -> Tensor:
    from .shape import flip

    return flip(cumsum(flip(g, [d]), d), [d])


def cumsum(input, dim, *, dtype=None):
    """Cumulative sum along dim (CumsumBackward0); ints/bools accumulate in int64."""
    _need_tensor("cumsum", input)
    _check_int_dim("cumsum", dim)
    odt = _reduce_dtype(input, dtype)
    nd = input._data.ndim
    d = _wrap(dim, nd)
    a = input._data.astype(odt.np, copy=False)
    data = np.cumsum(a, axis=d, dtype=odt.np) if nd else a.copy()
    from .reduction import plus_zero

    out, node = record(CumsumBackward0, plus_zero(data) if nd else data, odt, (input,))  # 0-d: a copy
    if node is not None:
        node.dim = d
    return out


class CumprodBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: reversed_cumsum(result * grad, dim) / self (exact products where self has zeros)"

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        r = self._unpack(1)
        d = self.dim
        if x._data.size <= 1 or x._data.ndim == 0 or x._data.shape[d] == 1:
            return (g,)
        if not np.any(x._data == 0):
            return (_reversed_cumsum(r * g, d) / x,)
        if _grad_enabled():  # create_graph: PyTorch's O(n^2) differentiable formula
            return (_cumprod_backward_graph(g, x, d),)
        # with zeros, PyTorch's O(n) first-order branch (FunctionsManual.cpp cumprod_backward), in the grad's
        # dtype and in its order of operations (the sign of a zero gradient depends on it):
        # k < z1 (before the first zero): reversed_cumsum(result * grad) / self;  k == z1: the sum over
        # z1 <= j < z2 of grad[j] * prod(self[z1+1..j]), times result[z1-1];  k > z1: 0
        npd = g._dtype.np
        xa = np.moveaxis(x._data.astype(npd), d, -1)
        ga = np.moveaxis(g._data.astype(npd), d, -1)
        ra = np.moveaxis(r._data.astype(npd), d, -1)
        one, zero = npd.type(1), npd.type(0)
        nzero = np.cumsum(xa == 0, axis=-1)
        before = nzero == 0
        w = np.where(before, ra * ga, zero)
        rev = np.flip(np.cumsum(np.flip(w, -1), axis=-1), -1)
        res = np.where(before, rev / np.where(before, xa, one), zero)
        at_one = nzero == 1
        first = at_one & (np.cumsum(at_one, axis=-1) == 1)
        between = at_one & ~first
        c = np.cumprod(np.where(between, xa, one), axis=-1)
        total = np.sum(c * np.where(at_one, ga, zero), axis=-1, keepdims=True)
        shifted = np.concatenate([np.ones_like(ra[..., :1]), ra[..., :-1]], axis=-1)
        res = np.where(first, total * shifted, res)
        return (_const(np.moveaxis(res, -1, d), g._dtype),)


def _cumprod_backward_graph(g: Tensor, x: Tensor, d: int) -> Tensor:
    """dx[k] = sum_{i >= k} g[i] prod_{j <= i, j != k} x[j], built from differentiable ops (FunctionsManual.cpp
    cumprod_backward, GradMode branch)."""
    from .creation import ones
    from .shape import cat, narrow

    n = x._data.shape[d]
    ones_size = list(x._data.shape)
    ones_size[d] = 1
    o = ones((1,), dtype=g._dtype).expand(tuple(ones_size))
    parts = []
    for k in range(n):
        if k == 0:
            omitted = cat([o, cumprod(narrow(x, d, 1, n - 1), d)], d)
        elif k == n - 1:
            omitted = prod(narrow(x, d, 0, k), d, keepdim=True)
        else:
            until = prod(narrow(x, d, 0, k), d, keepdim=True)
            after = cumprod(narrow(x, d, k + 1, n - k - 1), d)
            omitted = cat([until, until.expand_as(after) * after], d)
        parts.append((narrow(g, d, k, n - k) * omitted).sum(dim=d).unsqueeze(d))
    return cat(parts, d)


def cumprod(input, dim, *, dtype=None):
    """Cumulative product along dim (CumprodBackward0); ints/bools accumulate in int64."""
    _need_tensor("cumprod", input)
    _check_int_dim("cumprod", dim)
    odt = _reduce_dtype(input, dtype)
    nd = input._data.ndim
    d = _wrap(dim, nd)
    a = input._data.astype(odt.np, copy=False)
    data = np.cumprod(a, axis=d, dtype=odt.np) if nd else a.copy()
    out, node = record(CumprodBackward0, data, odt, (input,))
    if node is not None:
        node.dim = d
        node._save(saved(input), _saved_out(out))
    return out


# --- registration ----------------------------------------------------------------------------------------------------


def _f64(*shape, lo=-1.0, hi=1.0, seed=0, distinct=True):
    from .creation import tensor

    rng = np.random.default_rng(seed + 11 * len(shape) + sum(shape))
    n = int(np.prod(shape)) if shape else 1
    if distinct:  # well-separated values: no ties, no kinks within the finite-difference step
        vals = (np.arange(n) + 1.0) / n * (hi - lo) * 0.9 + lo + 0.05 * (hi - lo)
        vals = rng.permutation(vals)
    else:
        vals = rng.uniform(lo, hi, size=n)
    return tensor(np.asarray(vals).reshape(shape).tolist(), dtype=dt.float64, requires_grad=True)


register("prod", prod, "reduction", nodes=("ProdBackward0", "ProdBackward1"), formula=ProdBackward1.formula,
         sample=lambda: ((_f64(2, 3, lo=0.5, hi=2.0), 1), {}))
register("max", max, "reduction", nodes=("MaxBackward1", "MaxBackward0", "MaximumBackward0"),
         formula=MaxBackward1.formula + "; with dim: " + MaxBackward0.formula,
         sample=lambda: ((_f64(2, 3), 1), {}))
register("min", min, "reduction", nodes=("MinBackward1", "MinBackward0", "MinimumBackward0"),
         formula=MinBackward1.formula + "; with dim: " + MinBackward0.formula, sample=lambda: ((_f64(3, 2),), {}))
register("amax", amax, "reduction", nodes=("AmaxBackward0",), formula=AmaxBackward0.formula,
         sample=lambda: ((_f64(2, 3),), {"dim": 1}))
register("amin", amin, "reduction", nodes=("AminBackward0",), formula=AmaxBackward0.formula,
         sample=lambda: ((_f64(2, 3),), {"dim": (0, 1)}))
register("argmax", argmax, "reduction", formula="")
register("argmin", argmin, "reduction", formula="")
register("norm", norm, "reduction", nodes=("LinalgVectorNormBackward0",), formula=LinalgVectorNormBackward0.formula,
         sample=lambda: ((_f64(2, 3), 3), {"dim": 1}))
register("var", var, "reduction", nodes=("VarBackward0",), formula=VarBackward0.formula,
         sample=lambda: ((_f64(2, 3),), {"dim": 1}))
register("std", std, "reduction", nodes=("StdBackward0",), formula=StdBackward0.formula,
         sample=lambda: ((_f64(2, 3),), {"dim": 0, "keepdim": True}))
register("logsumexp", logsumexp, "reduction", nodes=("LogsumexpBackward0",), formula=LogsumexpBackward0.formula,
         sample=lambda: ((_f64(2, 3), 1), {}))
register("cumsum", cumsum, "reduction", nodes=("CumsumBackward0",), formula=CumsumBackward0.formula,
         sample=lambda: ((_f64(2, 3), 1), {}))
register("cumprod", cumprod, "reduction", nodes=("CumprodBackward0",), formula=CumprodBackward0.formula,
         sample=lambda: ((_f64(2, 3, lo=0.5, hi=1.5), 1), {}))
_ = REGISTRY
