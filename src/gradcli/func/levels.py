"""torch.func's transform levels (functorch's GradTrackingTensor wrappers) on gradcli's one autograd tape.

functorch wraps a transform's inputs in a tensor tracked at a new *level* and unwraps its results on the way
out, so a result requires grad outside only when it depends on what requires grad there.  gradcli has one
tape, so a level is a set of fresh leaves instead:

* :func:`differentiable` gives a transform its input: a tensor that requires grad outside (at an enclosing
  level, or in the file) gets a differentiable alias of itself (``AliasBackward0``), so derivatives of any
  order reach it (``grad(grad(f))``, ``jacrev(jacrev(f))``); any other gets a fresh leaf that requires grad,
  remembered as this level's;
* :func:`unwrap`, once the level has exited, keeps a result as it is when its graph reaches a tensor that
  requires grad outside (a leaf of the file or of an enclosing level, still active), and otherwise gives a
  new tensor over the same data that does not require grad (PyTorch's result then has ``requires_grad=False``,
  ``grad_fn=None``).

The result's own ``grad_fn`` is the node PyTorch names there (``grad(torch.sin)(x)``: ``MulBackward0``);
deeper in its graph an alias node and edges to the level's own leaves remain (they carry no gradient out).
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

from ..autograd import batching
from ..autograd.graph import AccumulateGrad
from ..autograd.tensor import Tensor
from ..errors import ValueErrorKind

__all__ = ["enter", "exit", "differentiable", "unwrap", "type_repr", "active"]

_ids = itertools.count(1)
#: the levels entered and not exited yet (innermost last)
_active: list[int] = []
#: id(fresh leaf) -> (weakref to it, its level)
_leaves: dict[int, tuple] = {}
#: id(alias) -> (weakref to it, the tensor it aliases): unwrapped to that tensor itself
_aliases: dict[int, tuple] = {}


def enter() -> int:
    """A new level (a unique number), active until :func:`exit`."""
    level = next(_ids)
    _active.append(level)
    return level


def exit(level: int) -> None:
    """End ``level`` (and any inner level an error left open)."""
    while _active:
        if _active.pop() == level:
            break


def active() -> int:
    """How many transform levels are active now."""
    return len(_active)


def reset() -> None:
    """Forget every level (a new run)."""
    _active.clear()
    _leaves.clear()
    _aliases.clear()


def type_repr(x: Any) -> str:
    """``str(type(x))`` as PyTorch shows it for the value a file passed (``<class 'float'>``)."""
    from ..autograd.functional import _type_repr

    return _type_repr(x)


def differentiable(x: Any, level: int) -> Tensor:
    """The tensor a transform at ``level`` differentiates for the input ``x`` (see the module doc).

    Raises PyTorch's ValueError "Thing passed to transform API must be Tensor, got <class ...>" for a
    non-tensor, and its RuntimeError for a tensor of an integer dtype (it cannot require grad)."""
    if not isinstance(x, Tensor):
        raise ValueErrorKind(f"Thing passed to transform API must be Tensor, got {type_repr(x)}")
    if x.requires_grad:
        from ..ops.shape import _alias

        if not x._dtype.is_floating_point:  # (an integer tensor never requires grad; kept for clarity)
            raise _dtype_error()
        a = _alias(x)
        key = id(a)
        _aliases[key] = (weakref.ref(a, lambda _r, k=key: _aliases.pop(k, None)), x)
        return a
    if not x._dtype.is_floating_point:
        raise _dtype_error()
    d = x.detach()
    d._requires_grad = True
    _keep_tangent(x, d)  # (a dual input keeps its tangent: jvp of a grad, jacfwd(jacrev(f)))
    key = id(d)
    _leaves[key] = (weakref.ref(d, lambda _r, k=key: _leaves.pop(k, None)), level)
    return d


def _dtype_error():
    from ..errors import error_class, torch_text

    return error_class("requires_grad_dtype")("only Tensors of floating point dtype can require gradients",
                                              torch_message=torch_text("requires_grad_dtype.method"))


def _own_leaf(t: Tensor) -> bool:
    """Is ``t`` a transform's fresh leaf whose level has exited?"""
    entry = _leaves.get(id(t))
    return entry is not None and entry[0]() is t and entry[1] not in _active


def unwrap(t: Any) -> Any:
    """A result leaving its level (after :func:`exit`): as it is when it depends on a tensor that requires grad
    outside, else a new tensor over its data without grad (non-tensors are returned as they are)."""
    if not isinstance(t, Tensor) or not t.requires_grad:
        return t
    entry = _aliases.get(id(t))
    if entry is not None and entry[0]() is t:
        return entry[1]  # an input returned as it is: the file's own tensor (PyTorch unwraps it to that)
    if _reaches_outside(t):
        return t
    from ..autograd.graph import source_position

    out = Tensor._from_data(t._data, t._dtype)
    out._origin = source_position.loc  # (gradcli why: computed from tensors that do not require grad outside)
    if batching.state.depth and batching.is_batched(t):
        batching.add(out)  # (inside vmap: still a batched tensor)
    _keep_tangent(t, out)
    return out


def _keep_tangent(t: Tensor, out: Tensor) -> None:
    """Inside a forward-AD level (jvp of a grad, jacfwd of a jacrev), ``out`` keeps ``t``'s tangent."""
    from ..autograd import forward_ad

    if forward_ad.state.level is not None:
        tangent = forward_ad.tangent_of(t)
        if tangent is not None:
            out._fw = (forward_ad.state.serial, tangent)


def _reaches_outside(t: Tensor) -> bool:
    from ..ops._core import edge

    if _own_leaf(t):
        return False
    root, _ = edge(t)
    if root is None:  # (a view made under no_grad of a tensor that requires grad: no history)
        return True
    seen = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is AccumulateGrad:
            if not _own_leaf(node.variable):
                return True
            continue
        for nxt, _nr in node.next_functions:
            if nxt is not None:
                stack.append(nxt)
    return False
