"""The VJP view (``gradcli run FILE --explain-vjp``): what a non-scalar ``backward(gradient=v)`` computes.

``y.backward(gradient=v)`` on a tensor ``y`` with more than one element does
not compute "the gradient of y" (there is none): it computes the
vector-Jacobian product ``vᵀJ`` for each leaf ``x``, where ``J = ∂y/∂x`` is the
Jacobian (``y.numel()`` rows, ``x.numel()`` columns), and adds it into
``x.grad``.  :class:`VJPRecorder` is an engine observer
(``gradcli.autograd.engine.observers``): before such a backward it computes J
row by row with ``autograd.grad`` on the still-intact graph (small sizes only;
hooks, trace and the explainers' logs are switched off meanwhile so the run is
not disturbed) and remembers each leaf's ``.grad``; after it, it takes what
landed in ``.grad`` and checks that it equals ``vᵀJ``.  No rich here.
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

import numpy as np

__all__ = ["VJPInput", "VJPView", "VJPRecorder", "recording", "MAX_ROWS", "MAX_COLS", "MAX_VIEWS"]

#: J is computed only up to these sizes (rows = root elements, columns = input elements)
MAX_ROWS = 64
MAX_COLS = 256
MAX_INPUTS = 8
MAX_VIEWS = 4

_TOL = {"float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12), "float16": (1e-3, 1e-5)}


@dataclass
class VJPInput:
    """One input x of a VJP: its Jacobian block J = ∂y/∂x, vᵀJ, and what landed in x.grad."""

    name: Optional[str]
    shape: tuple
    dtype: str
    jacobian: Optional[np.ndarray]  # (y.numel(), x.numel()), None when too large
    vjp: Optional[np.ndarray]  # vᵀJ in x's shape (None without J)
    landed: Optional[np.ndarray]  # x.grad after the backward minus before (None: nothing landed)
    matches: Optional[bool]  # vᵀJ == landed within the dtype's tolerance (None: not checked)
    held: Optional[np.ndarray] = None  # x.grad before the backward (None: it was None); .grad accumulates
    now: Optional[np.ndarray] = None  # x.grad after it


@dataclass
class VJPView:
    """One non-scalar backward with gradient=v."""

    line: Optional[int]
    col: Optional[int]
    root: Optional[str]
    root_shape: tuple
    v: np.ndarray
    inputs: list[VJPInput] = field(default_factory=list)
    note: str = ""


def _close(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    rtol, atol = _TOL.get(dtype, (1e-5, 1e-6))
    return a.shape == b.shape and bool(np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol))


def _leaves(root_node: Any, limit: int = 100_000) -> list:
    """Leaves that require grad reachable from a node, in discovery order (AccumulateGrad variables)."""
    out, seen, stack = [], set(), [root_node]
    while stack and len(seen) < limit:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        var = getattr(n, "variable", None)
        if var is not None:
            out.append(var)
            continue
        stack.extend(nx for nx, _ in reversed(getattr(n, "next_functions", ())))
    return out


@contextmanager
def _quiet_graph(root_node: Any) -> Iterator[None]:
    """Switch off, on every node reachable from root_node and its leaves, the hooks and retain_grad
    entries, the engine trace and the explainers' logs, and restore them after."""
    from ..autograd import engine

    nodes, seen, stack = [], set(), [root_node]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        stack.extend(nx for nx, _ in getattr(n, "next_functions", ()))
    stash = []
    for n in nodes:
        stash.append((n, n._pre_hooks, n._hooks, n._retained))
        n._pre_hooks = n._hooks = n._retained = None
    leaf_stash = []
    for n in nodes:
        var = getattr(n, "variable", None)
        if var is not None:
            leaf_stash.append((var, var._hooks, var._post_acc_hooks))
            var._hooks = var._post_acc_hooks = None
    sink, log_len = engine.trace_sink, len(engine.backward_log)
    engine.trace_sink = None
    try:
        yield
    finally:
        engine.trace_sink = sink
        del engine.backward_log[log_len:]
        for n, a, b, c in stash:
            n._pre_hooks, n._hooks, n._retained = a, b, c
        for var, h, p in leaf_stash:
            var._hooks, var._post_acc_hooks = h, p


class VJPRecorder:
    """Engine observer that records a :class:`VJPView` for each non-scalar backward (at most MAX_VIEWS)."""

    def __init__(self) -> None:
        self.views: list[VJPView] = []
        self._pending: list = []
        self.names: dict[int, str] = {}

    def __call__(self, phase: str, outputs: list, grads: list, inputs: Any) -> None:
        try:
            if phase == "before":
                self._before(outputs, grads, inputs)
            else:
                self._after()
        except Exception:  # a view must never change what the run does
            self._pending = []

    def _before(self, outputs: list, grads: list, inputs: Any) -> None:
        from ..autograd import engine
        from ..autograd.graph import source_position

        self._pending = []
        if len(self.views) >= MAX_VIEWS:
            return
        for y, v in zip(outputs, grads):
            if v is None or y._data.size <= 1:
                continue
            node = y._grad_fn
            if node is None:
                continue
            xs = list(inputs) if inputs is not None else _leaves(node)
            xs = xs[:MAX_INPUTS]
            loc = source_position.loc
            view = VJPView(line=None if loc is None else loc[0], col=None if loc is None else loc[1],
                           root=None, root_shape=tuple(y._data.shape), v=np.array(v._data, copy=True))
            view._root_ref = weakref.ref(y)  # type: ignore[attr-defined]  # named after the run
            rows = y._data.size
            jac: list = [None] * len(xs)
            small = rows <= MAX_ROWS and all(x._data.size <= MAX_COLS for x in xs)
            if small and xs:
                cols = [np.zeros((rows, x._data.size), dtype=x._data.dtype) for x in xs]
                from ..autograd.tensor import Tensor

                with _quiet_graph(node):
                    for k in range(rows):
                        e = np.zeros(rows, dtype=y._data.dtype)
                        e[k] = 1
                        ek = Tensor._from_data(e.reshape(y._data.shape), y._dtype)
                        gs = engine.grad([y], xs, grad_outputs=[ek], retain_graph=True, allow_unused=True)
                        for i, g in enumerate(gs):
                            if g is not None:
                                cols[i][k, :] = g._data.reshape(-1)
                jac = cols
            elif xs:
                view.note = (f"J is not shown: it would have {rows} rows (at most {MAX_ROWS}) and up to "
                             f"{max(x._data.size for x in xs)} columns (at most {MAX_COLS}).")
            before = [None if x._grad is None else np.array(x._grad._data, copy=True) for x in xs]
            self._pending.append((view, xs, jac, before))

    def _after(self) -> None:
        for view, xs, jac, before in self._pending:
            vflat = view.v.reshape(-1).astype(np.float64)
            for x, J, b in zip(xs, jac, before):
                after = None if x._grad is None else np.array(x._grad._data, copy=True)
                landed = None if after is None else (after if b is None else after - b)
                vjp = None
                if J is not None:
                    vjp = (vflat @ J.astype(np.float64)).reshape(x._data.shape).astype(x._data.dtype)
                matches = None
                if vjp is not None and landed is not None:
                    matches = _close(vjp, landed, x._dtype.name)
                elif vjp is not None and landed is None:
                    matches = not np.any(vjp)
                view.inputs.append(VJPInput(name=None, shape=tuple(x._data.shape), dtype=x._dtype.name,
                                            jacobian=J, vjp=vjp, landed=landed, matches=matches, held=b,
                                            now=after))
                view.inputs[-1]._tensor = x  # type: ignore[attr-defined]  # named after the run
            self.views.append(view)
        self._pending = []

    def name_views(self, result: Any) -> list[VJPView]:
        """Give roots and inputs the file's names after the run."""
        names = {}
        for n, t in result.tensors:
            names.setdefault(id(t), n)
        for view in self.views:
            ref = getattr(view, "_root_ref", None)
            y = ref() if ref is not None else None
            view.root = names.get(id(y)) if y is not None else None
            for inp in view.inputs:
                t = getattr(inp, "_tensor", None)
                inp.name = names.get(id(t)) if t is not None else None
        return self.views


@contextmanager
def recording(enabled: bool = True) -> Iterator[Optional[VJPRecorder]]:
    """Install a VJPRecorder as an engine observer for the duration of the block (None when disabled)."""
    if not enabled:
        yield None
        return
    from ..autograd import engine

    rec = VJPRecorder()
    engine.observers.append(rec)
    try:
        yield rec
    finally:
        engine.observers.remove(rec)
