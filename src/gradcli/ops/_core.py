"""Shared machinery of the op modules: argument coercion, result dtype, recording a node.

``record(node_cls, data, dtype, inputs)`` is the one place where a forward
result is wrapped in a Tensor and, when grad mode is on and some input
requires grad, connected to a new node (``next_functions`` + input
metadata).  Ops then save what their rule needs with ``node._save(...)``.
"""

from __future__ import annotations

import numpy as np

from ..autograd import dtypes as dt
from ..autograd import limits
from ..autograd.grad_mode import state as mode
from ..autograd.graph import Node, SavedTensor, accumulate_grad_node
from ..autograd.graph import source_position as _pos
from ..autograd.tensor import Tensor
from ..autograd import forward_ad as _fwad
from ..autograd import batching as _batching
from ..autograd import anomaly as _anomaly
from ..errors import ArgumentTypeError, error_class

np.seterr(all="ignore")  # PyTorch gives inf/nan silently; so do we

_SCALARS = (bool, int, float)

__all__ = ["Tensor", "Node", "SavedTensor", "record", "as_tensor", "result_dtype", "shape_error",
           "broadcast_shapes", "wrap", "mode", "dt", "check_numel", "saved", "edge"]

check_numel = limits.check_numel


def wrap(data, dtype: dt.dtype) -> Tensor:
    """A new leaf Tensor over numpy ``data`` (cast to ``dtype`` if needed)."""
    if type(data) is not np.ndarray:
        data = np.asarray(data, dtype=dtype.np)
    elif data.dtype != dtype.np:
        data = data.astype(dtype.np)
    return Tensor._from_data(data, dtype)


def edge(t) -> tuple:
    if t is None or type(t) is not Tensor and not isinstance(t, Tensor):
        return (None, 0)
    if t._base is not None:
        t._view_grad_fn()  # a view's history first (regenerated after an in-place change of its base)
    if not t._requires_grad:
        return (None, 0)
    fn = t._grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    return (accumulate_grad_node(t), 0)


def record(node_cls, data: np.ndarray, dtype: dt.dtype, inputs: tuple, wrapped_number: bool = False):
    """Wrap ``data`` and, if grad is enabled and an input requires grad, attach a new ``node_cls`` node.

    inputs: one entry per differentiable input, a Tensor or None (constants).  wrapped_number: the op also
    took a normal tensor that is not among ``inputs`` -- a Python number PyTorch wraps in one, or a normal
    index/mask/condition tensor -- so autograd is dispatched to even when every tensor input is an inference
    tensor (outside inference_mode).
    Returns (out, node) with node None when no graph is recorded.
    """
    if _fw.level is not None:
        out = _record_dual(node_cls, data, dtype, inputs, wrapped_number)
    else:
        out = _record(node_cls, data, dtype, inputs, wrapped_number)
    if _vm.depth:
        _batching.mark(out[0], inputs)  # torch.func.vmap: a result of a batched input is batched
    if _an.watch:  # anomaly mode: the forward op that made the first NaN/inf
        _anomaly.forward_check(node_cls, out[0]._data, inputs, out[1], _pos.loc)
    return out


_fw = _fwad.state
_vm = _batching.state
_an = _anomaly.state


def _record_dual(node_cls, data, dtype, inputs, wrapped_number):
    """record() inside a forward-AD level: an input's tangent gives the result one (autograd/forward_ad.py),
    with the node the op saves into even when no history is recorded."""
    tans = _fwad.input_tangents(inputs)
    _fw.dual_op = tans is not None
    out, node = _record(node_cls, data, dtype, inputs, wrapped_number)
    if tans is not None:
        node = _fwad.on_record(node_cls, node, out, inputs, tans)
    return out, node


def _record(node_cls, data: np.ndarray, dtype: dt.dtype, inputs: tuple, wrapped_number: bool = False):
    if type(data) is not np.ndarray:
        data = np.asarray(data)
    npd = dtype.np
    if data.dtype is not npd and data.dtype != npd:
        data = data.astype(npd)
    out = Tensor._from_data(data, dtype)
    if not mode.enabled:
        out._nograd = _pos.loc  # provenance (app/why.py): made while grad mode was off
        return out, None
    # one pass: edges, input metadata and which edges need a gradient (hot path: no helper calls)
    edges = []
    meta = []
    needs = []
    wanted = False
    only_inference = not mode.inference and not wrapped_number  # stays True while every input is an inference tensor
    for t in inputs:
        if t is None:
            only_inference = False
            edges.append(_NO_EDGE)
            meta.append(None)
            needs.append(False)
            continue
        if not t._inference:
            only_inference = False
        if t._base is not None:
            t._view_grad_fn()  # a view's history first (regenerated after an in-place change of its base)
        if t._requires_grad:
            wanted = True
            fn = t._grad_fn
            edges.append((fn, t._output_nr) if fn is not None else (accumulate_grad_node(t), 0))
            meta.append((t._data.shape, t._dtype))
            needs.append(True)
        elif t._base is not None and t.requires_grad:
            # a view of a tensor that requires grad, made with grad mode off: it requires grad but has
            # no history, so the node has no edge to it (PyTorch: no grad accumulator for such a view)
            wanted = True
            edges.append(_NO_EDGE)
            meta.append((t._data.shape, t._dtype))
            needs.append(False)
        else:
            edges.append(_NO_EDGE)
            meta.append(None)
            needs.append(False)
    if not wanted:
        out._origin = _pos.loc  # provenance (app/why.py): no input requires grad
        return out, None
    if only_inference and inputs:
        # only inference tensors (and no number, which PyTorch wraps in a normal tensor): autograd is not
        # dispatched to at all outside inference mode, so nothing is recorded
        return out, None
    node = node_cls()
    node.next_functions = tuple(edges)
    node._meta = tuple(meta)
    node._needs = tuple(needs)
    out._grad_fn = node
    out._requires_grad = True
    if value_sink is not None:
        value_sink(out, node)
    return out, node


#: ``fn(result, node)`` called for each result given a grad_fn here, or None (off: ``graph --values`` only,
#: autograd/values.py)
value_sink = None

_NO_EDGE = (None, 0)


def record_with_number(node_cls, data: np.ndarray, dtype: dt.dtype, t: Tensor):
    """``record(node_cls, data, dtype, (t, None))`` -- an op of one tensor and one Python number -- with the
    common case done in a few steps (issue 9: ``x * c`` in a loop, and every such backward step): a tensor
    that is not a view and not an inference tensor, ``data`` already of ``dtype``; anything else goes
    through ``record``.  Returns (out, node) as ``record`` does."""
    if type(data) is not np.ndarray or data.dtype is not dtype.np or t._base is not None or t._inference \
            or mode.inference or _fw.level is not None or _vm.depth or _an.watch:
        return record(node_cls, data, dtype, (t, None))
    out = Tensor._from_data(data, dtype)
    if not mode.enabled:
        out._nograd = _pos.loc
        return out, None
    if not t._requires_grad:
        out._origin = _pos.loc
        return out, None
    fn = t._grad_fn
    node = node_cls()
    node.next_functions = ((fn, t._output_nr) if fn is not None else (accumulate_grad_node(t), 0), _NO_EDGE)
    node._meta = ((t._data.shape, t._dtype), None)
    node._needs = _NEEDS_FIRST
    out._grad_fn = node
    out._requires_grad = True
    if value_sink is not None:
        value_sink(out, node)
    return out, node


_NEEDS_FIRST = (True, False)


def saved(t, cond: bool = True):
    """A SavedTensor of ``t`` (input) when ``cond``, else None; Python scalars are kept as they are.  An op of a
    dual tensor (forward AD) saves what its rule may need whatever ``cond`` says: the tangent is computed
    from it."""
    if not cond and not _fw.dual_op or t is None:
        return None
    if isinstance(t, Tensor):
        return SavedTensor(t)
    return t


def as_tensor(x, like: Tensor | None = None) -> Tensor:
    """Coerce a Python number (or nested list) to a Tensor; Tensors pass through."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _SCALARS):
        d = dt.result_type(x)
        return Tensor._from_data(np.asarray(x, dtype=d.np), d)
    raise ArgumentTypeError(f"expected a Tensor or a number, got {type(x).__name__}")


def result_dtype(*xs) -> dt.dtype:
    """PyTorch's result dtype for Tensors and Python scalars (TypeError for other values)."""
    for x in xs:
        if not isinstance(x, (Tensor,) + _SCALARS):
            raise ArgumentTypeError(f"unsupported operand type: {type(x).__name__}")
    return dt.result_type(*xs)


def broadcast_shapes(*shapes) -> tuple:
    """The broadcast shape, or a ``shape`` error worded as PyTorch's."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise shape_error(shapes[0], shapes[1]) from None


def shape_error(sa, sb):
    """PyTorch's broadcasting error: 'The size of tensor a (3) must match the size of tensor b (2) ...'."""
    sa, sb = tuple(sa), tuple(sb)
    n = max(len(sa), len(sb))
    pa = (1,) * (n - len(sa)) + sa
    pb = (1,) * (n - len(sb)) + sb
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return error_class("shape")(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) at non-singleton "
                f"dimension {i}",
            )
    return error_class("shape")(f"shapes {list(sa)} and {list(sb)} do not broadcast")
