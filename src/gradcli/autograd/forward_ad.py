"""torch.autograd.forward_ad: dual tensors and their tangents (forward-mode AD).

``dual_level()`` enters the one level PyTorch supports; ``make_dual(p, t)`` returns an alias of ``p`` carrying
the tangent ``t`` (as is: the same tensor, so a later in-place change of ``t`` shows); every op of a dual
tensor gives its result the Jacobian-vector product as tangent; ``unpack_dual(x)`` returns
``UnpackedDualTensor(primal, tangent)``; leaving the level drops every tangent.

The tangent of an op's result is computed from the op's backward node, so every op with a backward formula has
its forward derivative too: the node's rule is linear in the output gradient ``g`` (``J^T g``), so
``d/dg <J^T g, v> = J v``.  The rule runs once on a ``g`` that requires grad and the engine differentiates the
inner product with the input tangents ``v`` w.r.t. ``g``, with grad mode, saved-tensor hooks, tracing and
anomaly mode out of the way.  Ops that record no history (grad mode off, no input requiring grad) build the
same node, unattached, when an input is dual.  The product waits until the op has saved what its rule needs:
it is computed when the result is used (as an op's input, printed, unpacked), before anything is changed in
place, and before a backward pass can free the saved values.  Views take the same view of the input's tangent
(sharing its memory, as PyTorch's), multi-output views likewise; an in-place op writes its tangent into the
tensor's tangent (a view's into its base's, which becomes zeros first if it had none); a custom Function's
result gets its ``jvp`` staticmethod's tangents (``ctx.save_for_forward``), and a Function without one is
PyTorch's NotImplementedError.

A tangent that depends on a primal requiring grad (grad mode on) is computed with create_graph, so it is
differentiable; its grad_fn is named as PyTorch's (the last op of the op's forward formula, tangent_names.py).

Not modelled: forward-over-reverse (a gradient that a backward pass computes inside a level has no tangent; in
PyTorch the backward formulas propagate the saved values' tangents into it); the points where PyTorch's forward
formula is not the transpose of its backward one (ties and nan of max/maximum/clamp, 0 of pow/atan2/norm/std,
bce at 0 and 1, empty reductions: tests/ops/test_forward_ad_recorded.py's XFAIL list); a tangent whose dtype
differs from the primal's stays the primal's dtype in results.
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple, Optional

import numpy as np

from ..errors import ArgumentTypeError, GradcliError, error_class

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor"]


from .fwstate import state  # noqa: E402  (the level's state, without numpy: graph.py reads it)


class _Zero:
    """A floating input's missing tangent, read as zeros by a differentiable tangent's formula."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype) -> None:
        self.shape = shape
        self.dtype = dtype

    def tensor(self):
        from .tensor import Tensor

        return Tensor._from_data(np.zeros(self.shape, dtype=self.dtype.np), self.dtype)


class _Pending:
    """An op result's tangent before it is computed: the op's node and its inputs' tangents."""

    __slots__ = ("node", "tangents", "graph", "force")

    def __init__(self, node, tangents: tuple, graph: bool, force: bool = False) -> None:
        self.node = node
        self.tangents = tangents
        self.graph = graph  # the tangent is differentiable (grad mode on, an input or a tangent requires grad)
        self.force = force  # it has a history even where its value depends on no primal (_NUMBER_TERMS)


def reset() -> None:
    """Leave any level a run left open (engine.reset)."""
    state.level = None
    state.serial += 1
    state.busy = 0
    state.pending.clear()
    state.raw.clear()
    state.dual_op = False


def _runtime(msg: str):
    return error_class("runtime")(msg)


# --- the public API ---------------------------------------------------------------------------------------------
def enter_dual_level() -> int:
    """Enter the forward-AD level (0); a second one is PyTorch's 'Nested forward mode AD' error."""
    if state.level is not None:
        raise _runtime("Nested forward mode AD is not supported at the moment")
    state.serial += 1
    state.level = 0
    return 0


def exit_dual_level(*, level=None) -> None:
    """Leave the level: every tangent made in it is dropped."""
    current = -1 if state.level is None else state.level
    if level is None:
        level = current
    if level != current:
        raise _runtime("Trying to exit a forward AD level that was not the last one that was created. This is not "
                       "supported.")
    if level < 0:
        raise _runtime("Dual level must be a positive number.")
    state.level = None
    state.serial += 1
    state.pending.clear()
    state.raw.clear()
    state.dual_op = False


class dual_level:
    """Context manager (and decorator) around enter_dual_level / exit_dual_level."""
    __module__ = "torch.autograd.forward_ad"  # printed as PyTorch's class

    _gradcli_public = frozenset()
    _gradcli_module = "torch.autograd.forward_ad"

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: Any) -> bool:
        exit_dual_level()
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        wrapper.__name__ = getattr(fn, "__name__", "wrapper")
        return wrapper


class UnpackedDualTensor(NamedTuple):
    """Namedtuple of unpack_dual: the primal (an alias of the tensor's value) and its tangent (or None)."""
    __module__ = "torch.autograd.forward_ad"  # printed as PyTorch's class

    primal: Any
    tangent: Any


UnpackedDualTensor._gradcli_public = frozenset({"primal", "tangent", "count", "index"})
UnpackedDualTensor._gradcli_module = "torch.autograd.forward_ad"


def _check_level(level) -> None:
    if level is not None and level != state.level:
        if isinstance(level, int) and level >= 0:
            raise _runtime(f"Trying to use a level ({level}) that does not exist.")


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: an alias of ``tensor`` (a view: backward reaches ``tensor``) whose tangent is ``tangent``."""
    from .tensor import Tensor

    if level is None:
        level = -1 if state.level is None else state.level
    if level < 0 or state.level is None:
        raise _runtime("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                       "enter_dual_level() first.")
    for what, t in (("primal", tensor), ("tangent", tangent)):
        if not isinstance(t, Tensor):
            raise error_class("runtime")(f"'{type(t).__name__}' object has no attribute 'is_floating_point'",
                                         torch_type=AttributeError)
        if not t._dtype.is_floating_point:
            raise error_class("runtime")(f"Expected {what} to be floating point or complex, but got: torch.{t._dtype.name}",
                                         torch_type=ValueError)
    if tuple(tangent._data.shape) != tuple(tensor._data.shape):
        raise _runtime("Trying to set a forward gradient that has a different size than that of the original Tensor, "
                       f"this is not supported. Tensor is of size {list(tensor._data.shape)} while the given forward "
                       f"gradient is of size {list(tangent._data.shape)}.")
    if _own_tangent(tensor) is not None:
        raise _runtime("Making a dual Tensor based on a Tensor that already has a forward gradient at the same level "
                       f"{level} is not supported.")
    out = _alias_view(tensor)
    tan = tangent
    if not tangent._data.flags.c_contiguous and tangent._data.size > 1:
        tan = Tensor._from_data(np.ascontiguousarray(tangent._data), tangent._dtype)  # copied when laid out otherwise
    out._fw = (state.serial, tan)
    return out


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """(primal, tangent): the primal an alias of the tensor's value without the tangent; outside a level
    (tensor, None)."""
    from .tensor import Tensor

    if state.level is None:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, Tensor):
        raise ArgumentTypeError(f"_unpack_dual(): argument 'tensor' (position 1) must be Tensor, not "
                                f"{type(tensor).__name__}")
    tan = tangent_of(tensor)
    return UnpackedDualTensor(_alias_view(tensor), tan)


def primal_of(t):
    """t without its tangent (an alias), for a custom Function's jvp; anything else as it is."""
    from .tensor import Tensor

    return _alias_view(t) if isinstance(t, Tensor) and tangent_of(t) is not None else t


def _alias_view(t):
    """A view of t with the same shape (PyTorch's _make_dual / _fw_primal alias): ViewBackward0 when t requires
    grad, no tangent."""
    from ..ops.shape import _view, ViewBackward0

    shape = tuple(t._data.shape)
    prev = state.busy
    state.busy += 1  # (the alias takes no tangent of t)
    try:
        out, node = _view(t, t._data.view(), ViewBackward0, lambda a, s=shape: a.reshape(s))
    finally:
        state.busy = prev
    if node is not None:
        node.shape = shape
    out._fw = (state.serial, None)  # (not its base's either)
    return out


# --- tangents ---------------------------------------------------------------------------------------------------
_UNSET = object()


def _own_tangent(t, default=None):
    """t's own tangent: None for none; ``default`` when nothing was set at this level."""
    try:
        f = t._fw
    except AttributeError:
        return default
    if f is None or f[0] != state.serial:
        return default
    v = f[1]
    if type(v) is _Pending:
        v = _resolve(t, v)
    return v


def tangent_of(t):
    """t's tangent at the current level (None: not dual); a pending product is computed now; a view without
    one set takes the same view of its base's."""
    if state.level is None:
        return None
    v = _own_tangent(t, _UNSET)
    if v is _UNSET:
        v = None
        if t._base is not None and t._view_fn is not None:
            bt = _own_tangent(t._base)
            if bt is not None:
                v = _view_of(bt, t._view_fn)
                t._fw = (state.serial, v)
    return v


def _view_of(tan, fn):
    from .tensor import Tensor

    return Tensor._from_data(fn(tan._data), tan._dtype)


def input_tangents(inputs) -> Optional[tuple]:
    """The tangents of an op's inputs (None where an input has none), or None when no input has one."""
    if state.busy:
        return None
    tans = []
    found = False
    for t in inputs:
        v = None if t is None else tangent_of(t)
        if v is not None:
            found = True
        tans.append(v)
    return tuple(tans) if found else None


def on_record(node_cls, node, out, inputs, tans):
    """record(): ``out`` of an op with dual inputs (``tans``) gets a pending tangent; returns the node to save
    into (a new unattached one when the op records no history)."""
    if not out._dtype.is_floating_point:
        return node
    if node is None:
        node = node_cls()
        node.next_functions = tuple((None, 0) for _ in inputs)
        node._meta = tuple(None if t is None else (t._data.shape, t._dtype) for t in inputs)
        node._needs = tuple(v is not None for v in tans)
    if len(state.pending) > 64:
        flush()
    from .grad_mode import state as mode

    graph = mode.enabled and not mode.inference and (
        any(t is not None and t.requires_grad for t in inputs) or any(v is not None and v.requires_grad for v in tans))
    if graph:
        # PyTorch's formulas read a missing tangent as zeros: its term still makes the tangent differentiable
        # when its coefficient depends on a primal that requires grad (mm: self_p.mm(mat2_t))
        tans = tuple(v if v is not None or t is None or not t._dtype.is_floating_point else
                     _Zero(t._data.shape, t._dtype) for t, v in zip(inputs, tans))
    force = graph and node_cls.__name__ in _NUMBER_TERMS and any(
        t is None or not t._dtype.is_floating_point for t in inputs)
    p = _Pending(node, tans, graph, force)
    out._fw = (state.serial, p)
    state.pending.append((weakref.ref(out), p))
    return node


#: ops whose formula multiplies a primal by the tangent of a number (or integer tensor) operand, which PyTorch
#: reads as zeros: ``x * 2`` has a tangent with a history (AddBackward0) when x requires grad
_NUMBER_TERMS = frozenset({"MulBackward0", "DivBackward0"})


def flush() -> None:
    """Compute every pending tangent (before an in-place change or a backward pass)."""
    items = state.pending
    state.pending = []
    for ref, p in items:
        out = ref()
        if out is None:
            continue
        f = getattr(out, "_fw", None)
        if f is not None and f[1] is p and f[0] == state.serial:
            _resolve(out, p)
    state.raw.clear()


def _resolve(out, p: _Pending):
    try:
        v = _jvp(p.node, p.tangents, out, p.graph)
        if p.force and not v._requires_grad:
            v = _named(v, p.node, force=True)
    except BaseException:
        out._fw = None
        raise
    out._fw = (state.serial, v)
    return v


def _jvp(node, tans: tuple, out, differentiable: bool = False):
    """J v for ``out`` (output ``out._output_nr`` of ``node``) from the node's backward rule (module doc);
    ``differentiable``: computed with create_graph, so that it is differentiable w.r.t. the primals and tangents."""
    from . import anomaly, engine, graph
    from .grad_mode import state as mode
    from .tensor import Tensor

    shape = tuple(out._data.shape)
    dtype = out._dtype
    prev = (mode.enabled, mode.inference, anomaly.state.enabled, engine.trace_sink, node._needs, node._saved)
    hooks = graph.pack_hooks[:]
    raw = state.raw.pop(node, None)
    state.busy += 1
    try:
        mode.enabled = True
        mode.inference = False
        anomaly.state.enabled = False
        engine.trace_sink = None
        graph.pack_hooks.clear()
        if raw is not None:
            node._saved = raw
        node._needs = tuple(v is not None for v in tans)
        g = Tensor._from_data(np.zeros(shape, dtype=dtype.np), dtype)
        g._requires_grad = True
        grads = [None] * max(1, node.num_outputs)
        grads[out._output_nr if out._grad_fn is node else 0] = g
        gi = node.apply(grads)
        if type(gi) is not tuple:
            gi = tuple(gi) if isinstance(gi, list) else (gi,)
        total = None
        for i, v in enumerate(tans):
            if v is None or i >= len(gi) or gi[i] is None:
                continue
            if type(v) is _Zero:
                v = v.tensor()
            gr = gi[i]
            vshape = tuple(v._data.shape)
            gshape = tuple(gr._data.shape)
            if gshape != vshape:
                if len(gshape) == len(vshape) and all(a <= b for a, b in zip(gshape, vshape)):
                    v = v[tuple(slice(0, a) for a in gshape)]  # (scatter's src larger than its index)
                else:
                    gr = gr.sum_to_size(vshape)
            term = (gr * (v if differentiable else Tensor._from_data(v._data, v._dtype))).sum()
            total = term if total is None else total + term
        if total is None or not total._requires_grad:
            z = Tensor._from_data(np.zeros(shape, dtype=dtype.np), dtype)
            return z
        acc = graph.accumulate_grad_node(g)
        cell = [None]
        one = Tensor._from_data(np.ones((), dtype=total._dtype.np), total._dtype)
        try:
            engine._execute([(total._grad_fn, total._output_nr)], [one], retain_graph=False,
                            create_graph=differentiable, targets={acc}, captures={(acc, 0): cell}, accumulate=False)
        except GradcliError:
            # a backward rule with no derivative of its own (hardsigmoid's): J v a row at a time
            r = _jvp_rows(node, tans, out, grads.index(g))
            return _named(r, node, force=True) if differentiable else r
        r = cell[0]
        if r is None:
            r = Tensor._from_data(np.zeros(shape, dtype=dtype.np), dtype)
        if differentiable and r._requires_grad:
            if r._dtype is not dtype:
                r = r.to(dtype)
            return _named(r, node)
        data = r._data
        if data.dtype != dtype.np:
            data = data.astype(dtype.np)
        return Tensor._from_data(np.array(data, copy=True), dtype)
    finally:
        state.busy -= 1
        mode.enabled, mode.inference, anomaly.state.enabled, engine.trace_sink = prev[:4]
        node._needs = prev[4]
        node._saved = prev[5]
        graph.pack_hooks[:] = hooks


_NAMED: dict = {}


def _identity_apply(self, grads):
    return (grads[0],) if self.next_functions else ()


def _named_class(name: str) -> type:
    from .graph import Node

    return type(name, (Node,), {"__slots__": (), "apply": _identity_apply,
                                "formula": "the tangent of a dual tensor (forward AD)"})


def table_key(node) -> str:
    """The key of tangent_names.TANGENT_GRAD_FN: the node's name, with what selects PyTorch's formula where
    one node has several (a loss's reduction, a norm's order)."""
    name = type(node).__name__
    red = getattr(node, "reduction", None)
    if isinstance(red, str):
        return f"{name}:{red}"
    if name == "LinalgVectorNormBackward0":
        p = getattr(node, "ord", 2)
        p = 2.0 if isinstance(p, str) else float(p)
        kind = "0" if p == 0 else "1" if p == 1 or p in (float("inf"), float("-inf")) else "lt1" if p < 1 else \
            "2" if p == 2 else "p"
        return f"{name}:{kind}"
    return name


def _named(r, node, force: bool = False):
    """A differentiable tangent: r behind an identity node named as PyTorch's tangent's grad_fn (the last op of
    the op's forward formula: tangent_names.py, measured on PyTorch 2.13)."""
    from .tangent_names import TANGENT_GRAD_FN
    from .graph import Node
    from .tensor import Tensor

    name = TANGENT_GRAD_FN.get(table_key(node))
    if name is None:
        if not force:
            return r
        name = "AddBackward0"
    cls = _NAMED.get(name)
    if cls is None:
        cls = _NAMED[name] = _named_class(name)
    from ..ops._core import record

    if r._requires_grad:
        out, _ = record(cls, r._data, r._dtype, (r,))
        return out
    return _edgeless(cls, r)


def _edgeless(cls, r):
    """r with a history of one ``cls`` node and no edge (its value depends on no tensor that requires grad)."""
    from .tensor import Tensor

    out = Tensor._from_data(r._data, r._dtype)
    n = cls()
    n.next_functions = ()
    out._grad_fn = n
    out._requires_grad = True
    return out


def _jvp_rows(node, tans: tuple, out, k: int):
    """J v from the rule applied to each basis cotangent (one apply per element of ``out``), grad mode off."""
    from .grad_mode import state as mode
    from .tensor import Tensor

    shape = tuple(out._data.shape)
    dtype = out._dtype
    n = int(np.prod(shape)) if shape else 1
    res = np.zeros(n, dtype=np.float64)
    mode.enabled = False
    for j in range(n):
        e = np.zeros(n, dtype=dtype.np)
        e[j] = 1
        grads = [None] * max(1, node.num_outputs)
        grads[k] = Tensor._from_data(e.reshape(shape), dtype)
        gi = node.apply(grads)
        if type(gi) is not tuple:
            gi = tuple(gi) if isinstance(gi, list) else (gi,)
        acc = 0.0
        for i, v in enumerate(tans):
            if v is None or type(v) is _Zero or i >= len(gi) or gi[i] is None:
                continue
            gd = gi[i]._data
            vd = v._data
            if gd.shape != vd.shape:
                gd = np.broadcast_to(gd, vd.shape) if gd.ndim <= vd.ndim else gi[i].sum_to_size(vd.shape)._data
            acc += float(np.sum(gd.astype(np.float64) * vd.astype(np.float64)))
        res[j] = acc
    return Tensor._from_data(res.reshape(shape).astype(dtype.np), dtype)


def keep_raw(node, items) -> None:
    """Node._save under saved-tensor hooks: the product of a pending node reads the values as saved, without
    calling the unpack hooks."""
    for _, p in state.pending:
        if p.node is node:
            state.raw[node] = tuple(s._pending if getattr(s, "_pending", None) is not None else s for s in items)
            return


def on_view(out, input, replay) -> None:
    """A view op's result: the same view of the input's tangent (sharing its memory)."""
    if state.busy:
        return
    tan = tangent_of(input)
    if tan is not None and not tan._requires_grad:  # (a differentiable one: the pending product, a new tensor)
        out._fw = (state.serial, _view_of(tan, replay))


def on_multi_view(outs, input, keys) -> None:
    """unbind/split/chunk: each piece's tangent is the same piece of the input's."""
    if state.busy:
        return
    tan = tangent_of(input)
    if tan is None:
        return
    if tan._requires_grad:  # the same pieces of a differentiable tangent, recorded
        state.busy += 1
        try:
            for o, k in zip(outs, keys):
                o._fw = (state.serial, tan[k])
        finally:
            state.busy -= 1
        return
    for o, k in zip(outs, keys):
        o._fw = (state.serial, _view_of(tan, lambda a, k=k: a[k]))


#: in-place ops whose tangent PyTorch updates with the same in-place op on the tangent (``self_t.fill_(0)`` ...):
#: the tangent's grad_fn is that op's; comparisons, random fills and zero_ zero it (ZeroBackward0); any other
#: in-place op copies its formula's result into the tangent (CopyBackwards)
_SAME_INPLACE = frozenset({"FillBackward2", "FillBackward3", "MaskedFillBackward0", "MaskedFillBackward1",
                           "IndexPutBackward0", "ScatterBackward0", "CopySlices"})
_ZEROING = frozenset({"EqBackward0", "EqBackward1", "NeBackward0", "NeBackward1", "LtBackward0", "LtBackward1",
                      "LeBackward0", "LeBackward1", "GtBackward0", "GtBackward1", "GeBackward0", "GeBackward1",
                      "RandomBackward0", "RandomBackward1", "RandomBackward2", "NormalBackward0",
                      "UniformBackward0", "ZeroBackward0"})


def on_inplace(t, out) -> None:
    """apply_inplace: before t's data change.  Every pending product is computed first (their saved values are
    about to change); then ``out``'s tangent becomes t's: written into t's tangent when it has one (a view's
    into its base's, zeros first when it had none), else taken as it is.  A differentiable tangent is named
    as PyTorch's update of it (_SAME_INPLACE, _ZEROING, else CopyBackwards; CopySlices for a view's base)."""
    from .tensor import Tensor

    f = getattr(out, "_fw", None)
    node = f[1].node if f is not None and type(f[1]) is _Pending else out._grad_fn
    flush()
    ot = tangent_of(out)
    if ot is None:
        return
    tt = tangent_of(t)
    if tt is None and node is not None and type(node).__name__ in _ZEROING:
        return  # (a comparison in place of a tensor without a tangent: none, whatever its other operand)
    view = t._base is not None and t._view_fn is not None
    if tt is None and not view:
        if tuple(ot._data.shape) != tuple(t._data.shape):
            ot = Tensor._from_data(np.broadcast_to(ot._data, t._data.shape).copy(), ot._dtype)
        t._fw = (state.serial, ot)
        return
    old = tt
    if view:  # written into the base's tangent (zeros first when it has none), the view's is derived from it
        base = t._base
        bt = _own_tangent(base)
        if bt is None or not bt._data.flags.writeable:
            data = np.zeros(base._data.shape, dtype=base._dtype.np) if bt is None else np.array(bt._data)
            bt = Tensor._from_data(data, base._dtype)
            base._fw = (state.serial, bt)
        tt = _view_of(bt, t._view_fn)
        t._fw = None
    if not tt._data.flags.writeable:  # (a tangent that is an expand()ed view: written as a copy)
        tt = Tensor._from_data(np.array(tt._data, copy=True), tt._dtype)
        t._fw = (state.serial, tt)
    np.copyto(tt._data, np.broadcast_to(ot._data, tt._data.shape), casting="unsafe")
    if view:
        old = _own_tangent(t._base)
    if not (ot._requires_grad or old is not None and old._requires_grad):
        return
    name = "CopyBackwards" if node is None else type(node).__name__
    if name in _ZEROING:
        name = "ZeroBackward0"
    elif name not in _SAME_INPLACE:
        name = "CopyBackwards"
    if view:
        name = "CopySlices"
    cls = _NAMED.get(name)
    if cls is None:
        cls = _NAMED[name] = _named_class(name)
    src = ot if ot._requires_grad else old
    from ..ops._core import record

    prev = state.busy
    state.busy += 1
    try:
        target = t._base if view else t
        data = old._data if view else tt._data
        nt, _ = record(cls, data, data.dtype and tt._dtype, (src,)) if src._requires_grad else \
            (_edgeless(cls, Tensor._from_data(data, tt._dtype)), None)
        nt._data = data
    finally:
        state.busy = prev
    target._fw = (state.serial, nt)


def tangent_suffix(t) -> Optional[str]:
    """The ``tangent=...`` suffix of a dual tensor's repr (a 0-d tangent prints as its Python float)."""
    tan = tangent_of(t)
    if tan is None:
        return None
    if tan._data.ndim == 0:
        return f"tangent={float(tan._data)!r}"
    return f"tangent={tan!r}"


# --- custom Functions -------------------------------------------------------------------------------------------
def function_tangents(cls, node, args: tuple, outputs):
    """A custom Function's outputs, when an input is dual: its ``jvp(ctx, *input tangents)`` gives theirs
    (PyTorch's NotImplementedError without one)."""
    from .tensor import Tensor

    tans = input_tangents(tuple(a if isinstance(a, Tensor) else None for a in args))
    if tans is None:
        return
    from .function import Function

    if cls.jvp is Function.jvp:
        raise error_class("runtime")("You must implement the jvp function for custom autograd.Function to use it "
                                     "with forward mode AD.", torch_type=NotImplementedError)
    outs = outputs if type(outputs) is tuple else (outputs,)
    d = node.__dict__
    d["_in_jvp"] = True
    state.busy += 1
    try:
        res = cls.jvp(node, *tans)
    finally:
        state.busy -= 1
        d["_in_jvp"] = False
    res = res if type(res) is tuple else (res,)
    for o, r in zip(outs, res):
        if isinstance(o, Tensor) and isinstance(r, Tensor) and o._dtype.is_floating_point:
            o._fw = (state.serial, r)
