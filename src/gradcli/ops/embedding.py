"""Embeddings: ``F.embedding`` (EmbeddingBackward0) over ATen's ``embedding`` and ``embedding_renorm_`` (which
gradcli does not expose as ``torch.embedding`` / ``torch.embedding_renorm_``).

As PyTorch 2.13: ``F.embedding``'s Python checks (``padding_idx`` within ``num_embeddings``: AssertionError;
a negative one counts from the end; None is -1), ``max_norm`` renormalising the looked-up rows of the weight
in place first (``embedding_renorm_`` on ``weight.detach()``: each distinct index once, in sorted order, a
row whose ``norm_type``-norm exceeds ``max_norm`` scaled by ``max_norm / (norm + 1e-7)``; the weight's
version counter moves), then ATen's ``embedding``: ``'weight' must be 2-D``, indices of dtype Long or Int,
``weight.index_select(0, indices.reshape(-1))`` viewed as ``indices.shape + (embedding_dim,)`` (an index
out of range: IndexError "index out of range in self").

Backward (``embedding_dense_backward_cpu``): ``grad_weight = zeros(num_weights, dim)`` and, for each index in
memory order except ``padding_idx``, ``grad_weight[k] += grad[i]`` (times ``1 / count(k)`` with
``scale_grad_by_freq``) -- the same float32 sums in the same order, so the gradient is PyTorch's bit for bit
when no scaling applies.  With ``create_graph=True`` and a gradient that requires grad, the result is an
EmbeddingDenseBackwardBackward0 node whose own backward is ``embedding_dense_double_backward`` (the rows of the
incoming gradient at the indices, zero at ``padding_idx``).  ``sparse=True`` (a sparse gradient) is not
supported by gradcli.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, error_class
from ..errors import python_errors
from ._core import Node, Tensor, check_numel, dt, record, saved
from ..autograd.graph import inplace_log as _inplace_log
from ..autograd.graph import source_position as _pos
from .registry import register

__all__ = ["embedding", "torch_embedding", "embedding_renorm_", "check_padding_idx", "bump_version"]

_TYPE = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
         "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _assertion(msg: str) -> Exception:
    return error_class("assertion")(msg)


def _check_indices(indices: Tensor, fn: str) -> np.ndarray:
    name = indices._dtype.name
    if name not in ("int64", "int32"):
        raise error_class("runtime")(
            f"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but "
            f"got torch.{_TYPE.get(name, name)}Tensor instead (while checking arguments for {fn})")
    return indices._data.astype(np.int64, copy=False)


class EmbeddingBackward0(Node):
    __slots__ = ("padding_idx", "scale_grad_by_freq", "sparse", "num_weights")
    formula = "weight: embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq)"

    def apply(self, grads):
        idx = self._unpack(0)
        return (embedding_dense_backward(grads[0], idx, self.num_weights, self.padding_idx,
                                         self.scale_grad_by_freq),)


class EmbeddingDenseBackwardBackward0(Node):
    __slots__ = ("padding_idx",)
    formula = "grad_output: the rows of grad at indices, zero where indices == padding_idx"

    def apply(self, grads):
        idx = self._unpack(0)
        return (_double_backward(grads[0], idx, self.padding_idx),)


def _double_backward(gg: Tensor, indices: Tensor, padding_idx: int) -> Tensor:
    """``embedding_dense_double_backward``: ``gg.index_select(0, indices)`` with padding rows zeroed."""
    from .misc import index_select

    flat = indices.reshape(-1)
    out = index_select(gg, 0, flat)
    if padding_idx >= 0:
        mask = Tensor._from_data((indices._data.reshape(-1, 1) == padding_idx), dt.bool_)
        out = out.masked_fill(mask, 0)
    return out.view(tuple(indices._data.shape) + (gg._data.shape[-1],))


def embedding_dense_backward(grad: Tensor, indices: Tensor, num_weights: int, padding_idx: int,
                             scale_grad_by_freq: bool) -> Tensor:
    """The weight's gradient (num_weights, dim): grad rows added to their index rows in memory order."""
    idx = indices._data.reshape(-1).astype(np.int64, copy=False)
    dim = grad._data.shape[-1]
    check_numel(num_weights * dim)
    g = np.ascontiguousarray(grad._data).reshape(idx.size, dim)
    out = np.zeros((num_weights, dim), dtype=grad._dtype.np)
    keep = idx != padding_idx
    if scale_grad_by_freq:
        counts = np.bincount(idx, minlength=num_weights)
        for i in np.nonzero(keep)[0]:
            k = idx[i]
            # add_stub(alpha = 1.0 / count): a fused multiply-add in the tensor's dtype
            out[k] = _fma_rows(g[i], out[k], grad._dtype, 1.0 / counts[k])
    else:
        np.add.at(out, idx[keep], g[keep])  # unbuffered: each row added in index order, as the CPU loop
    data, node = record(EmbeddingDenseBackwardBackward0, out, grad._dtype, (grad,))
    if node is not None:
        node.padding_idx = padding_idx
        node._save(saved(indices))
    return data


def _fma_rows(b: np.ndarray, a: np.ndarray, dtype: dt.dtype, alpha: float) -> np.ndarray:
    """``a + alpha * b`` as PyTorch's add kernel with alpha (``vec::fmadd(b, alpha, a)``: one rounding, alpha
    in the tensor's dtype)."""
    from ..autograd import fma as _fma

    return _fma.fma(b, np.full_like(b, alpha), a, dtype.np)


@python_errors
def torch_embedding(weight: Any, indices: Any, padding_idx: int = -1, scale_grad_by_freq: bool = False,
                    sparse: bool = False) -> Tensor:
    """``torch.embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False)``: the rows
    of the 2-d ``weight`` at integer ``indices``, shape ``indices.shape + (dim,)`` (EmbeddingBackward0)."""
    for pos, (name, v) in enumerate((("weight", weight), ("indices", indices)), start=1):
        if not isinstance(v, Tensor):
            raise ArgumentTypeError(f"embedding(): argument '{name}' (position {pos}) must be Tensor, not "
                                    f"{type(v).__name__}")
    if sparse:
        raise error_class("unsupported")("nn.Embedding(sparse=True) / F.embedding(sparse=True) is not supported by "
                                         "gradcli (sparse gradients)", "Use sparse=False (the default).")
    if weight._data.ndim != 2:
        raise error_class("runtime")("'weight' must be 2-D")
    idx = _check_indices(indices, "embedding")
    flat = idx.reshape(-1)
    n = weight._data.shape[0]
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise ArgumentIndexError("index out of range in self")
    check_numel(flat.size * weight._data.shape[1])
    data = np.take(weight._data, flat, axis=0).reshape(tuple(idx.shape) + (weight._data.shape[1],))
    out, node = record(EmbeddingBackward0, data, weight._dtype, (weight,), wrapped_number=not indices._inference)
    if node is not None:
        node.padding_idx = int(padding_idx)
        node.scale_grad_by_freq = bool(scale_grad_by_freq)
        node.sparse = bool(sparse)
        node.num_weights = n
        node._save(saved(indices))
    return out


def bump_version(t: Tensor) -> None:
    """The version bump of an in-place op (shared with t's views), logged for the explainers as
    ops/inplace.py logs its own."""
    t._version[0] += 1
    _inplace_log.append((t._version, t._version[0], _pos.loc))


def embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """``torch.embedding_renorm_``: rows of ``weight`` at ``indices`` scaled in place to norm ``max_norm``
    (see the module docstring); runs with grad mode off."""
    from ..autograd.grad_mode import no_grad

    if weight._data.ndim != 2:
        raise error_class("runtime")("'weight' must be 2-D")
    idx = _check_indices(indices, "embedding_renorm_")
    if indices._data.ndim != 1 and idx.ndim != 1:
        idx = idx.reshape(-1)
    n = weight._data.shape[0]
    data = weight._data
    with no_grad():
        for k in sorted(set(int(v) for v in idx.reshape(-1))):
            if not 0 <= k < n:
                raise ArgumentIndexError("index out of range in self")
            norm = Tensor._from_data(data[k].copy(), weight._dtype).norm(norm_type).item()
            if norm > max_norm:
                data[k] = data[k] * weight._dtype.np.type(max_norm / (norm + 1e-7))  # row *= scale
    bump_version(weight)  # one in-place op on the whole weight, whether or not a row changed
    return weight


def check_padding_idx(padding_idx: Any, num: int) -> Any:
    """torch.nn's ``padding_idx`` checks (``padding_idx > 0`` ... as Python compares, a TypeError for a
    non-number): AssertionError when out of range; a negative index counts from the end."""
    if not isinstance(padding_idx, (int, float)):
        raise ArgumentTypeError(f"'>' not supported between instances of '{type(padding_idx).__name__}' and 'int'")
    if padding_idx > 0:
        if padding_idx >= num:
            raise _assertion("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        if padding_idx < -num:
            raise _assertion("Padding_idx must be within num_embeddings")
        padding_idx = num + padding_idx
    return padding_idx


@python_errors
def embedding(input: Any, weight: Any, padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """``F.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
    sparse=False)``: ``weight[input]`` for integer ``input`` of any shape and a 2-d ``weight`` (num, dim); the
    rows at ``padding_idx`` get no gradient; ``max_norm`` renormalises the looked-up rows in place first."""
    if padding_idx is not None:
        if not isinstance(weight, Tensor):
            raise ArgumentTypeError(f"'{type(weight).__name__}' object has no attribute 'size'")
        padding_idx = check_padding_idx(padding_idx, weight._data.shape[0] if weight._data.ndim else 0)
    else:
        padding_idx = -1
    if max_norm is not None:
        if not isinstance(input, Tensor):
            raise ArgumentTypeError(f"'{type(input).__name__}' object has no attribute 'contiguous'")
        input = input.contiguous()
        for name, pos, v in (("max_norm", 3, max_norm), ("norm_type", 4, norm_type)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ArgumentTypeError(f"embedding_renorm_(): argument '{name}' (position {pos}) must be float, not "
                                        f"{type(v).__name__}")
        embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    return torch_embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def _sample():
    w = Tensor._from_data(np.random.default_rng(5).uniform(-1, 1, size=(5, 3)), dt.float64)
    w.requires_grad_(True)
    # (no padding_idx / scale_grad_by_freq: their gradients are not the derivative)
    return (Tensor._from_data(np.array([[0, 2, 4], [2, 1, 0]], dtype=np.int64), dt.int64), w), {}


register("embedding", embedding, "nn", torch=(), F=("embedding",), methods=(),
         nodes=("EmbeddingBackward0", "EmbeddingDenseBackwardBackward0"), formula=EmbeddingBackward0.formula,
         sample=_sample)
