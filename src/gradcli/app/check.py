"""The ``check`` service: analytic gradients against float64 central differences (SPEC §3, issue 6).

**The file is the function.**  ``gradcli check FILE`` runs FILE once (the
*reference run*, in float64) and then once more per perturbed element:

* the *inputs* are the leaves that require grad: every tensor that became a
  leaf requiring grad during the run (``requires_grad=True`` on a factory,
  ``requires_grad_()``, ``.requires_grad = True``, ``--set`` with
  ``--requires-grad``) and is bound to a top-level name at the end, or that
  the target's graph reaches (named ``<leaf, line N>``).  A leaf is known by
  the order in which leaves start requiring grad, which is the same in every
  run of a deterministic file (random streams are seeded);
* the *target* is the last top-level ``backward()`` of the run: the one gradcli
  runs after the file (``--backward NAME`` or SPEC §3's default), or else the
  file's own last ``backward()`` call.  With ``v`` the gradient it was called
  with (ones for a scalar, ``--gradient``), the function checked is
  ``f = sum(v * target)``;
* the analytic gradient of an input is what that backward added to its
  ``.grad`` (its ``.grad`` after the call minus before: earlier calls do not
  count);
* the numerical one: for each element ``j`` of input ``k`` (at most
  :data:`FILE_SAMPLE` of them, evenly spread, for a big input), the file is run
  again with that element set to ``x[j] - eps`` and to ``x[j] + eps`` at the
  moment the leaf starts requiring grad (before anything uses it), and
  ``(f(x + eps) - f(x - eps)) / (2 eps)`` is taken with the reference ``v``.
  A perturbed run that fails or makes a different number of backward calls is
  reported for that input (the file does not define a smooth function there).

Errors and verdict are gradcheck's (``numeric_vs_analytic``): max abs error,
max rel error ``|a - n| / max(|a|, |n|)``, ok when ``|a - n| <= atol + rtol |n|``
everywhere.

**--per-node** checks each node of the target's graph on its own, in one more
run that records, for every operation the file calls (the registry's ``torch.*``
/ ``F.*`` functions, Tensor methods and operators, custom ``Function.apply``),
the forward call that created each node: the function, a copy of its tensor
arguments at call time and the random generator's state.  At the target
``backward()``, before it runs, each recorded node's forward is replayed on
float64 copies of those arguments: its vector-Jacobian product for a random
``v`` (one backward through a fresh node of the same rule -- for a custom
Function the user's own ``backward``) is compared with central differences of
``sum(v * forward(...))`` (for a custom Function the user's own ``forward``).
Nodes made inside another recorded operation are covered by that operation's
check; other nodes (e.g. ``CopySlices`` of ``x[i] = v``) are listed as not
checked.  The first node (in the order the file made them) whose rule
disagrees is named with its line.

Instrumentation is installed only around check's own runs and removed after:
a wrapper of ``Tensor._set_requires_grad`` (leaf events), an engine observer
(``engine.observers``: backward calls) and, for ``--per-node``, wrappers of the
op functions.  The language layer (``run_file`` / ``run_prepared``) is used
unchanged.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import time
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np

from ..status import ExitStatus
from .problems import UsageProblem

__all__ = [
    "SCHEMA",
    "CheckReport",
    "CheckSettings",
    "InputResult",
    "NodeResult",
    "check_document",
    "check_file",
    "check_source",
    "compare",
    "exit_status",
]

SCHEMA = "gradcli.check/1"

#: --per-node checks at most this many elements of each input of a node (evenly spread)
NODE_SAMPLE = 256
#: the whole-file check perturbs at most this many elements of each input (two runs each; evenly spread)
FILE_SAMPLE = 2000


@dataclass(frozen=True)
class CheckSettings:
    """``--eps``, ``--atol``, ``--rtol`` (gradcheck's defaults) and ``--per-node``."""

    eps: float = 1e-6
    atol: float = 1e-5
    rtol: float = 1e-3
    per_node: bool = False


@dataclass
class InputResult:
    """The verdict for one input (a leaf that requires grad)."""

    name: str
    shape: list[int]
    dtype: str
    max_abs_error: float
    max_rel_error: float
    ok: bool
    note: str = ""
    analytic: Optional[np.ndarray] = field(default=None, repr=False, compare=False)
    numeric: Optional[np.ndarray] = field(default=None, repr=False, compare=False)


@dataclass
class NodeResult:
    """The verdict of ``--per-node`` for one node of the target's graph.

    status: ``ok`` | ``wrong`` (its rule disagrees with finite differences) |
    ``covered`` (made inside another checked operation) | ``unchecked``.
    """

    name: str
    line: Optional[int]
    status: str
    op: Optional[str] = None
    tensor: Optional[str] = None
    max_abs_error: Optional[float] = None
    max_rel_error: Optional[float] = None
    custom: bool = False
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.status != "wrong"


@dataclass
class CheckReport:
    """Everything ``gradcli check`` found; ``run`` is the reference run (its print output, warnings, error)."""

    file: str
    run: Any
    settings: CheckSettings
    target: Optional[str] = None
    target_line: Optional[int] = None
    inputs: list[InputResult] = field(default_factory=list)
    nodes: Optional[list[NodeResult]] = None
    notes: list[str] = field(default_factory=list)
    runs: int = 0

    @property
    def ok(self) -> bool:
        if self.run is None or not self.run.ok:
            return False
        return all(i.ok for i in self.inputs) and all(n.ok for n in (self.nodes or ()))

    @property
    def first_wrong_node(self) -> Optional[NodeResult]:
        return next((n for n in (self.nodes or ()) if n.status == "wrong"), None)


# =============================================================================================
# instrumentation of one run
# =============================================================================================
@dataclass
class _Call:
    """One top-level ``backward()`` call of a run."""

    index: int
    loc: Optional[tuple]
    outputs: list  # float64 copies of the roots' values
    grads: list  # float64 copies of the gradients it was called with
    shapes: list
    dtypes: list
    graph: tuple  # the node names of the roots' graph, in walk order (a different graph = another path)
    roots: list = field(default_factory=list)  # the root tensors (reference run only)
    inputs: Optional[set] = None  # ids of backward(inputs=...) tensors, None = all leaves
    before: Optional[dict] = None  # leaf index -> .grad before the call (reference run only)
    deltas: Optional[dict] = None  # leaf index -> what the call added to .grad
    versions: Optional[dict] = None  # leaf index -> version counter at the call (reference run only)


class _Probe:
    """Watches one run: leaves as they start requiring grad (perturbing one element of one of them) and the
    top-level backward calls."""

    def __init__(self, perturb: Optional[tuple] = None, *, reference: bool = False,
                 at_call: Optional[int] = None, on_call: Optional[Callable] = None) -> None:
        self.perturb = perturb  # (leaf index, flat element index, delta)
        self.reference = reference
        self.leaves: list = []
        self.leaf_lines: list = []
        self.leaf_versions: list = []
        self._ids: set = set()
        self.count = 0
        self.depth = 0
        self.current: Optional[_Call] = None
        self.last: Optional[_Call] = None
        self.at_call = at_call
        self.on_call = on_call

    def leaf(self, t: Any) -> None:
        if id(t) in self._ids:
            return
        self._ids.add(id(t))
        k = len(self.leaves)
        self.leaves.append(t)
        from ..autograd.graph import source_position

        self.leaf_lines.append(source_position.line)
        self.leaf_versions.append(t._version[0])
        p = self.perturb
        if p is not None and p[0] == k:
            # the leaf gets its own perturbed copy: tensors that shared its storage before it required grad
            # (its base, a broadcast source) are constants to autograd and stay as they were
            data = np.array(t._data, order="C", copy=True)
            idx = np.unravel_index(p[1], data.shape)
            data[idx] = data[idx] + p[2]
            t._data = data

    def observe(self, phase: str, outputs: list, grads: list, inputs: Any) -> None:
        if phase == "before":
            self.depth += 1
            if self.depth != 1:
                return
            self.count += 1
            from ..autograd.graph import source_position

            call = _Call(
                index=self.count, loc=source_position.loc,
                outputs=[np.array(o._data, dtype=np.float64) for o in outputs],
                grads=[np.array(g._data, dtype=np.float64) for g in grads],
                shapes=[tuple(o._data.shape) for o in outputs],
                dtypes=[o._dtype.name for o in outputs],
                graph=_graph_signature(outputs),
            )
            if self.reference:
                call.roots = list(outputs)
                call.inputs = None if inputs is None else {id(t) for t in inputs}
                call.before = {k: _grad_copy(t) for k, t in enumerate(self.leaves)}
                call.versions = {k: t._version[0] for k, t in enumerate(self.leaves)}
            self.current = call
            if self.on_call is not None and self.count == self.at_call:
                self.on_call(list(outputs))
            return
        self.depth = max(0, self.depth - 1)
        if self.depth == 0 and self.current is not None:
            call = self.current
            if self.reference:
                deltas: dict[int, Optional[np.ndarray]] = {}
                for k, t in enumerate(self.leaves):
                    after = _grad_copy(t)
                    before = call.before.get(k) if call.before else None
                    if after is None:
                        deltas[k] = None
                    elif before is None or before.shape != after.shape:
                        deltas[k] = after
                    else:
                        deltas[k] = after - before
                call.deltas = deltas
                call.before = None
            self.last = call
            self.current = None


def _graph_signature(outputs: list) -> tuple:
    """The class names of the nodes reachable from ``outputs``, in a fixed walk order."""
    names = []
    seen: set = set()
    stack = [o._grad_fn for o in reversed(outputs) if o._grad_fn is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        names.append(type(n).__name__)
        stack.extend(nx for nx, _ in reversed(getattr(n, "next_functions", ()) or ()) if nx is not None)
    return tuple(names)


def _grad_copy(t: Any) -> Optional[np.ndarray]:
    g = t._grad
    return None if g is None else np.array(g._data, dtype=np.float64)


@contextlib.contextmanager
def _instrumented(probe: _Probe, recorder: Optional[_Recorder] = None) -> Iterator[None]:
    """Install the probe (and the recorder) for the runs inside the block; always removed after."""
    from ..autograd import engine
    from ..autograd.tensor import Tensor

    original = Tensor.__dict__["_set_requires_grad"]

    def _set_requires_grad(self: Any, flag: bool) -> None:
        becomes = flag and self._grad_fn is None and not self._requires_grad
        original(self, flag)
        if becomes and self._requires_grad:
            probe.leaf(self)

    Tensor._set_requires_grad = _set_requires_grad  # type: ignore[method-assign]
    engine.observers.append(probe.observe)
    try:
        if recorder is not None:
            with recorder.installed():
                yield
        else:
            yield
    finally:
        try:
            engine.observers.remove(probe.observe)
        except ValueError:  # pragma: no cover - removed by someone else
            pass
        Tensor._set_requires_grad = original  # type: ignore[method-assign]


# =============================================================================================
# --per-node: recording forward calls, replaying them
# =============================================================================================
@dataclass
class _Slot:
    """A tensor argument of a recorded call: where it sits, a copy of its value, whether it required grad."""

    path: tuple  # ('a', i) | ('a', i, j) | ('k', name) | ('k', name, j)
    data: np.ndarray
    dtype: Any
    requires_grad: bool


@dataclass
class _OpCall:
    """One recorded forward call that created a node."""

    fn: Callable
    op: str
    args: tuple
    kwargs: dict
    slots: list
    rng: Any
    seq0: int
    seq1: int = 0
    positions: list = field(default_factory=list)  # positions of the node's outputs in the flattened result
    custom: bool = False
    self_output: bool = False  # an in-place method that returns None (x[i] = v): its result is args[0]


def _tensor_slots(args: tuple, kwargs: dict, tensor_type: type) -> list:
    found: list = []
    for i, a in enumerate(args):
        if isinstance(a, tensor_type):
            found.append((("a", i), a))
        elif type(a) in (list, tuple):
            found.extend((("a", i, j), x) for j, x in enumerate(a) if isinstance(x, tensor_type))
    for k, a in kwargs.items():
        if isinstance(a, tensor_type):
            found.append((("k", k), a))
        elif type(a) in (list, tuple):
            found.extend((("k", k, j), x) for j, x in enumerate(a) if isinstance(x, tensor_type))
    return found


def _rebuild(call: _OpCall, values: list) -> tuple[tuple, dict]:
    """The call's arguments with each tensor slot replaced by ``values[i]``."""
    args = list(call.args)
    kwargs = dict(call.kwargs)
    for slot, v in zip(call.slots, values):
        p = slot.path
        box: Any = args if p[0] == "a" else kwargs
        if len(p) == 2:
            box[p[1]] = v
        else:
            seq = list(box[p[1]])
            seq[p[2]] = v
            box[p[1]] = type(box[p[1]])(seq)
    return tuple(args), kwargs


def _flat_outputs(out: Any, tensor_type: type) -> list:
    if isinstance(out, tensor_type):
        return [out]
    if type(out) in (list, tuple):
        return [x if isinstance(x, tensor_type) else None for x in out]
    return []


class _Recorder:
    """Wraps the op functions for one run and remembers, per node, the forward call that made it."""

    def __init__(self) -> None:
        from ..autograd import grad_mode, graph
        from ..autograd.tensor import Tensor

        self.Tensor = Tensor
        self.mode = grad_mode.state
        self.seq = graph._seq
        self.calls: dict[int, tuple] = {}  # id(node) -> (node, _OpCall)
        self.all_calls: list = []

    def _generator(self) -> Any:
        try:
            from ..autograd import random as _random
        except ImportError:  # pragma: no cover
            return None
        return getattr(_random, "default_generator", None)

    def wrap(self, fn: Callable, op: str, custom: bool = False) -> Callable:
        rec = self
        T = self.Tensor
        mode = self.mode

        @functools.wraps(fn)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if not mode.enabled:
                return fn(*args, **kwargs)
            found = _tensor_slots(args, kwargs, T)
            if not any(t._requires_grad or (t._base is not None and t._base._requires_grad) for _, t in found):
                return fn(*args, **kwargs)
            gen = rec._generator()
            call = _OpCall(
                fn=fn, op=op, args=args, kwargs=kwargs, custom=custom,
                slots=[_Slot(p, np.array(t._data, order="C", copy=True), t._dtype, bool(t.requires_grad))
                       for p, t in found],
                rng=gen.get_state() if gen is not None else None, seq0=next(rec.seq),
            )
            out = fn(*args, **kwargs)
            call.seq1 = next(rec.seq)
            if out is None and args and isinstance(args[0], T):
                call.self_output = True
                rec.note(call, args[0])
            else:
                rec.note(call, out)
            return out

        return recorded

    def note(self, call: _OpCall, out: Any) -> None:
        mine: dict = {}
        for pos, o in enumerate(_flat_outputs(out, self.Tensor)):
            if o is None:
                continue
            node = o._grad_fn
            if node is None or not isinstance(node._seq, int) or node._seq <= call.seq0:
                continue
            if id(node) in self.calls and id(node) not in mine:
                continue  # made by an inner recorded call
            mine[id(node)] = node
            if id(node) not in self.calls:
                self.calls[id(node)] = (node, dataclasses.replace(call, positions=[]))
            self.calls[id(node)][1].positions.append(pos)
        if mine:
            self.all_calls.append(call)

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        from ..autograd import function as function_mod
        from ..ops.registry import REGISTRY, tensor_methods

        T = self.Tensor
        saved_fns = {name: op.fn for name, op in REGISTRY.items()}
        saved_methods: dict[str, Any] = {}
        saved_apply = function_mod._apply
        try:
            wrappers: dict[int, Callable] = {}  # id(original function) -> its wrapper
            for name, op in REGISTRY.items():
                w = wrappers.get(id(op.fn))
                if w is None:
                    w = wrappers[id(op.fn)] = self.wrap(op.fn, op.name)
                op.fn = w
            for name in tensor_methods():
                current = T.__dict__.get(name)
                if not isinstance(current, types.FunctionType):
                    continue  # properties (T, mT), inherited or missing names stay as they are
                saved_methods[name] = current
                w = wrappers.get(id(current))
                setattr(T, name, w if w is not None else self.wrap(current, name))

            def apply_recorded(cls: Any, args: tuple, kwargs: dict, has_setup: bool) -> Any:
                def forward(*a: Any, **kw: Any) -> Any:
                    return saved_apply(cls, tuple(a), kw, has_setup)

                forward.__name__ = f"{cls.__name__}.apply"
                return self.wrap(forward, f"{cls.__name__}.apply", custom=True)(*args, **kwargs)

            function_mod._apply = apply_recorded
            yield
        finally:
            function_mod._apply = saved_apply
            for name, fn in saved_methods.items():
                setattr(T, name, fn)
            for name, fn in saved_fns.items():
                REGISTRY[name].fn = fn


class _NodeChecker:
    """Checks the nodes of the target's graph at the target backward call (inside the per-node run)."""

    def __init__(self, recorder: _Recorder, settings: CheckSettings) -> None:
        self.recorder = recorder
        self.settings = settings
        self.results: list[tuple[Any, NodeResult]] = []
        self.checked = False

    def __call__(self, outputs: list) -> None:
        self.checked = True
        nodes = _graph_nodes(outputs)
        gen = self.recorder._generator()
        state = gen.get_state() if gen is not None else None
        from ..autograd.graph import source_position

        loc = source_position.loc
        try:
            for node in sorted(nodes, key=lambda n: n._seq):
                self.results.append((node, self.check_node(node)))
        finally:
            source_position.loc = loc
            if gen is not None:
                gen.set_state(state)
        self._covered()

    def check_node(self, node: Any) -> NodeResult:
        name = type(node).__name__
        line = node._line
        found = self.recorder.calls.get(id(node))
        if found is None:
            return NodeResult(name=name, line=line, status="unchecked",
                              note="no forward call of its own to replay")
        call = found[1]
        res = NodeResult(name=name, line=line, status="ok", op=call.op, custom=call.custom)
        try:
            worst = _check_call(call, self.settings, self.recorder)
        except _Unchecked as e:
            res.status = "unchecked"
            res.note = str(e)
            return res
        except Exception as e:  # noqa: BLE001 - a replay that cannot run is reported, not fatal
            res.status = "unchecked"
            res.note = f"replaying {call.op} failed: {getattr(e, 'message', None) or e}"
            return res
        res.max_abs_error, res.max_rel_error, ok, res.note = worst
        res.status = "ok" if ok else "wrong"
        return res

    def _covered(self) -> None:
        spans = [(c.seq0, c.seq1, c) for c in self.recorder.all_calls]
        for node, res in self.results:
            if res.status != "unchecked" or res.note != "no forward call of its own to replay":
                continue
            inside = [c for s0, s1, c in spans if s0 < node._seq < s1]
            if inside:
                outer = min(inside, key=lambda c: c.seq1 - c.seq0)
                res.status = "covered"
                res.op = outer.op
                res.note = f"made inside {outer.op}, checked with it"


class _Unchecked(Exception):
    pass


def _graph_nodes(outputs: list) -> list:
    """Every node (not AccumulateGrad) reachable from the roots' grad_fns."""
    start = [o._grad_fn for o in outputs if o._grad_fn is not None]
    seen: dict[int, Any] = {}
    stack = list(start)
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen[id(n)] = n
        stack.extend(nx for nx, _ in (getattr(n, "next_functions", ()) or ()) if nx is not None)
    return [n for n in seen.values() if not hasattr(n, "variable") and isinstance(n._seq, int)]


def _as64(slot: _Slot) -> tuple[np.ndarray, Any]:
    from ..autograd import dtypes as dt

    if slot.dtype.is_floating_point and slot.dtype is not dt.float64:
        return slot.data.astype(np.float64), dt.float64
    return slot.data, slot.dtype


def _check_call(call: _OpCall, s: CheckSettings, recorder: _Recorder) -> tuple:
    """(max abs, max rel, ok, note) of the VJP of ``call``'s node against central differences."""
    from ..autograd import engine, grad_mode
    from ..autograd.tensor import Tensor

    gen = recorder._generator()
    mode = grad_mode.state
    base = [_as64(sl) for sl in call.slots]
    diff = [i for i, sl in enumerate(call.slots) if sl.requires_grad and sl.dtype.is_floating_point]
    if not diff:
        raise _Unchecked("no input of the call requires grad")

    def invoke(values: list, grad: bool) -> list:
        if gen is not None and call.rng is not None:
            gen.set_state(call.rng)
        prev = (mode.enabled, mode.inference)
        mode.enabled, mode.inference = grad, False
        try:
            args, kwargs = _rebuild(call, values)
            out = call.fn(*args, **kwargs)
            if call.self_output:
                out = args[0]
        finally:
            mode.enabled, mode.inference = prev
        flat = _flat_outputs(out, Tensor)
        picked = []
        for p in call.positions:
            if p >= len(flat) or flat[p] is None:
                raise _Unchecked(f"replaying {call.op} gave a different result")
            picked.append(flat[p])
        return picked

    # analytic: one backward through a fresh node of the same rule, with a random v
    leaves = []
    values: list = []
    for i, (data, dtype) in enumerate(base):
        t = Tensor._from_data(np.array(data, order="C", copy=True), dtype)
        if i in diff:
            t.requires_grad_(True)
            leaves.append(t)
            prev = mode.enabled
            mode.enabled = True
            try:
                t = t.clone()  # type: ignore[attr-defined]  # a non-leaf: in-place forwards may modify it
            finally:
                mode.enabled = prev
        values.append(t)
    outs = invoke(values, grad=True)
    rng = np.random.default_rng(0)
    vs = [rng.standard_normal(o._data.shape) for o in outs]
    roots = [(o, v) for o, v in zip(outs, vs) if o._requires_grad and o._dtype.is_floating_point]
    if not roots:
        raise _Unchecked(f"the replayed {call.op} has no output that requires grad")
    # backward() into the fresh leaves, not grad(): the reentrant checkpoint refuses grad()
    engine.backward([o for o, _ in roots], [Tensor._from_data(v.astype(o._dtype.np), o._dtype) for o, v in roots])
    analytic = [np.zeros(base[i][0].shape) if t._grad is None else np.array(t._grad._data, dtype=np.float64)
                for i, t in zip(diff, leaves)]

    def f(values_np: list) -> float:
        vals = [Tensor._from_data(v, base[i][1]) for i, v in enumerate(values_np)]
        total = 0.0
        for o, v in zip(invoke(vals, grad=False), vs):
            if o._dtype.is_floating_point:
                total += float(np.sum(np.asarray(o._data, dtype=np.float64) * v))
        return total

    worst_abs = worst_rel = 0.0
    ok = True
    sampled = []
    for k, i in enumerate(diff):
        data = base[i][0]
        n_el = int(data.size)
        idx = np.arange(n_el) if n_el <= NODE_SAMPLE else np.unique(np.linspace(0, n_el - 1, NODE_SAMPLE).astype(int))
        if n_el > NODE_SAMPLE:
            sampled.append(f"{len(idx)} of {n_el} elements")
        a = analytic[k].reshape(-1)[idx]
        n = np.empty(len(idx))
        for m, j in enumerate(idx):
            vals = [np.array(d, order="C", copy=True) for d, _ in base]
            at = np.unravel_index(int(j), vals[i].shape)
            orig = vals[i][at]
            vals[i][at] = orig - s.eps
            lo = f(vals)
            vals[i][at] = orig + s.eps
            hi = f(vals)
            n[m] = (hi - lo) / (2 * s.eps)
        e_abs, e_rel, e_ok = compare(a, n, s.atol, s.rtol)
        worst_abs, worst_rel, ok = _worse(worst_abs, e_abs), _worse(worst_rel, e_rel), ok and e_ok
    note = ("sampled " + ", ".join(sampled)) if sampled else ""
    return worst_abs, worst_rel, ok, note


def _worse(a: float, b: float) -> float:
    if np.isnan(a) or np.isnan(b):
        return float("nan")
    return max(a, b)


def compare(analytic: np.ndarray, numeric: np.ndarray, atol: float, rtol: float) -> tuple[float, float, bool]:
    """(max abs error, max rel error, ok) as gradcheck's numeric_vs_analytic: rel = |a-n| / max(|a|,|n|),
    ok when |a - n| <= atol + rtol * |n| everywhere (NaN anywhere: nan, nan, False)."""
    a = np.asarray(analytic, dtype=np.float64).reshape(-1)
    n = np.asarray(numeric, dtype=np.float64).reshape(-1)
    if a.size == 0:
        return 0.0, 0.0, True
    diff = np.abs(a - n)
    if np.isnan(diff).any():
        return float("nan"), float("nan"), False
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = np.maximum(np.abs(a), np.abs(n))
        rel = np.where(denom > 0, diff / np.where(denom > 0, denom, 1.0), 0.0)
    ok = bool(np.all(diff <= atol + rtol * np.abs(n)))
    return float(diff.max()), float(rel.max()), ok


# =============================================================================================
# the service
# =============================================================================================
class _Diverged(Exception):
    """A perturbed run that does not define f (failed, or took another path)."""


def check_file(path: str, options: Any, settings: CheckSettings = CheckSettings(), stdin: Any = None) -> CheckReport:
    """``gradcli check FILE`` (or ``-``): read the file, then :func:`check_source`."""
    from .run import read_source

    source, display = read_source(path, stdin, getattr(options, "max_source_bytes", None))
    return check_source(source, display, options, settings)


def _float64_options(options: Any) -> Any:
    if options.dtype not in (None, "float64"):
        raise UsageProblem(f"check runs in float64, not --dtype {options.dtype}",
                           "Drop --dtype (or pass --dtype float64): finite differences need double precision.")
    return dataclasses.replace(options, dtype="float64", trace=False)


def check_source(source: Union[str, bytes], filename: str, options: Any,
                 settings: CheckSettings = CheckSettings()) -> CheckReport:
    """Check the analytic gradients of an expression file against finite differences (see the module doc).

    Returns a CheckReport (the reference run's error, if the file failed, is in ``report.run.error``).
    Raises UsageProblem when there is nothing to differentiate (no backward call), and the language
    layer's InvocationError for a bad ``--set``.
    """
    from ..lang.run import run_file

    if not (settings.eps > 0):
        raise UsageProblem(f"--eps must be positive, not {settings.eps:g}")
    options = _float64_options(options)
    probe = _Probe(reference=True)
    started = time.monotonic()
    with _instrumented(probe):
        result = run_file(source, filename, options)
    took = time.monotonic() - started
    report = CheckReport(file=filename, run=result, settings=settings, runs=1)
    if not result.ok:
        return report
    call = probe.last
    if call is None:
        raise UsageProblem(
            "nothing to check: no backward() ran (the file makes no backward call, and its last tensor "
            "does not require grad)" if options.backward is None else "nothing to check: no backward() ran",
            "Name the tensor to differentiate with --backward NAME (a scalar, or pass --gradient).")
    names: dict[int, str] = {}
    for name, t in result.tensors:
        names.setdefault(id(t), name)
    report.target = _target_name(call, names, options)
    report.target_line = None if call.loc is None else call.loc[0]
    if probe.count > 1:
        report.notes.append(f"the file ran backward() {probe.count} times: the last one is checked")
    loose = sorted({d for d in call.dtypes if d != "float64"})
    if loose:
        report.notes.append(f"the target is {', '.join(loose)} (the file makes it so): finite differences "
                            "need float64, expect large errors")
    inputs = _select_inputs(probe, call, names, report)
    if not _plan_reruns(inputs, settings, options, took, report):
        return report
    parsed = _prepared(source, filename, options)
    for k, name, t in inputs:
        analytic = call.deltas.get(k) if call.deltas else None
        shape = [int(d) for d in t._data.shape]
        a = np.zeros(t._data.shape) if analytic is None else analytic
        numeric, idx, note = _numeric(parsed, options, k, int(t._data.size), call, settings, report)
        e_abs, e_rel, ok = compare(np.asarray(a).reshape(-1)[idx], numeric[idx], settings.atol, settings.rtol)
        extra = []
        if t._dtype.name != "float64":
            extra.append(f"{t._dtype.name}: finite differences need float64 (create it as float64)")
        v0, v1 = probe.leaf_versions[k], (call.versions or {}).get(k, probe.leaf_versions[k])
        if v1 != v0:
            extra.append("changed in place after it started requiring grad: the differences perturb its first "
                         "value, autograd differentiates the changed one")
        note = "; ".join(x for x in [note, *extra] if x)
        report.inputs.append(InputResult(name=name, shape=shape, dtype=t._dtype.name, max_abs_error=e_abs,
                                         max_rel_error=e_rel, ok=ok, note=note, analytic=np.asarray(a),
                                         numeric=numeric.reshape(t._data.shape)))
    if settings.per_node:
        report.nodes = _per_node(parsed, options, call, settings, report)
    return report


def _seconds(t: float) -> str:
    return f"{t:,.0f} s" if t >= 100 else f"{t:.3g} s"


def _plan_reruns(inputs: list, settings: CheckSettings, options: Any, took: float, report: CheckReport) -> bool:
    """State how many times check reruns the file (a note), and refuse -- a ``limit`` error of the report's
    run, False -- when that many runs of the reference run's duration ``took`` would outlast the command's
    time limit (issue 20: ``--timeout`` bounds the whole command; a 2,000-element leaf with a 0.1 s loop
    ran for minutes, its --timeout bounding each rerun)."""
    from ..lang.limits import DEFAULT_LIMITS, command_deadline, limit_error

    planned = sum(2 * min(int(t._data.size), FILE_SAMPLE) for _, _, t in inputs) + (1 if settings.per_node else 0)
    if not planned:
        return True
    why = "2 per checked element" + (", 1 for --per-node" if settings.per_node else "")
    report.notes.append(f"check reruns the file {planned:,} times ({why})")
    whole = command_deadline()
    if whole is None:  # no command clock (the library called directly): each run has its own time limit
        return True
    timeout = DEFAULT_LIMITS.with_options(options).timeout
    left = whole - time.monotonic()
    estimate = planned * took
    if estimate <= left:
        return True
    from ..lang.limits import command_timeout

    limit = command_timeout() or timeout
    err = limit_error(
        f"check would rerun the file {planned:,} times ({why}), about {_seconds(estimate)} at the reference run's "
        f"{_seconds(took)} each: more than the {_seconds(max(0.0, left))} left of the command's time limit of "
        f"{limit:g} s", "timeout")
    from ..lang.result import ErrorRecord

    report.run.ok = False
    line = report.target_line
    lines = (report.run.source or "").splitlines()
    report.run.error = ErrorRecord(kind=err.kind, message=err.message, hint=err.hint, line=line,
                                   source_line=lines[line - 1] if line and line <= len(lines) else None,
                                   facts={"limit": "timeout", "check_estimate": True})
    return False


def _prepared(source: Union[str, bytes], filename: str, options: Any) -> Any:
    from ..lang.limits import DEFAULT_LIMITS
    from ..lang.run import prepare

    limits = DEFAULT_LIMITS.with_options(options)
    return prepare(source, filename, limits, tuple(n.strip() for n, _ in options.sets))


def _target_name(call: _Call, names: dict, options: Any) -> str:
    if options.backward and len(call.roots) == 1 and call.loc is None:
        return options.backward
    found = [names.get(id(r)) for r in call.roots]
    if found and all(found):
        return ", ".join(found)  # type: ignore[arg-type]
    if call.loc is not None:
        return f"<backward at line {call.loc[0]}>"
    return "<backward after the file>"


def _select_inputs(probe: _Probe, call: _Call, names: dict, report: CheckReport) -> list:
    reach = _reachable_leaves(call.roots)
    chosen = []
    skipped = []
    for k, t in enumerate(probe.leaves):
        if t._grad_fn is not None or not t._requires_grad or not t._dtype.is_floating_point:
            continue
        name = names.get(id(t))
        if name is None and id(t) not in reach:
            continue
        if call.inputs is not None and id(t) not in call.inputs:
            if name is not None:
                skipped.append(name)
            continue
        if name is None:
            line = probe.leaf_lines[k]
            name = f"<leaf, line {line}>" if line is not None else f"<leaf #{k + 1}>"
        chosen.append((k, name, t))
    if skipped:
        report.notes.append("not checked (not among the backward's inputs): " + ", ".join(skipped))
    return chosen


def _reachable_leaves(roots: list) -> set:
    ids = set()
    stack = [r._grad_fn for r in roots if r._grad_fn is not None]
    seen: set = set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        var = getattr(n, "variable", None)
        if var is not None:
            ids.add(id(var))
        stack.extend(nx for nx, _ in (getattr(n, "next_functions", ()) or ()) if nx is not None)
    return ids


def _sample(numel: int, cap: int) -> np.ndarray:
    """All element indices, or ``cap`` of them evenly spread (first and last included)."""
    if numel <= cap:
        return np.arange(numel)
    return np.unique(np.linspace(0, numel - 1, cap).astype(np.int64))


def _numeric(parsed: Any, options: Any, k: int, numel: int, ref: _Call, s: CheckSettings,
             report: CheckReport) -> tuple[np.ndarray, np.ndarray, str]:
    """Central differences of f for the elements of leaf ``k`` (at most FILE_SAMPLE of them, evenly spread):
    (values, NaN where not sampled or where a perturbed run diverged; the sampled indices; a note)."""
    out = np.full(numel, np.nan)
    idx = _sample(numel, FILE_SAMPLE)
    problem = "" if len(idx) == numel else f"sampled {len(idx)} of {numel} elements"
    for j in (int(i) for i in idx):
        try:
            lo = _evaluate(parsed, options, (k, j, -s.eps), ref, report)
            hi = _evaluate(parsed, options, (k, j, +s.eps), ref, report)
            out[j] = (hi - lo) / (2 * s.eps)
        except _Diverged as e:
            out[j] = np.nan
            if "element" not in problem:
                problem = "; ".join(x for x in (problem, f"element {j}: {e}") if x)
    return out, idx, problem


def _evaluate(parsed: Any, options: Any, perturb: tuple, ref: _Call, report: CheckReport) -> float:
    from ..lang.run import run_prepared

    probe = _Probe(perturb)
    with _instrumented(probe):
        r = run_prepared(parsed, options)
    report.runs += 1
    sign = "+" if perturb[2] > 0 else "-"
    if not r.ok:
        err = r.error
        where = "" if err is None or err.line is None else f" at line {err.line}"
        raise _Diverged(f"the run with it changed by {sign}eps failed ({err.kind if err else '?'}{where})")
    call = probe.last
    if call is None or probe.count != ref.index or call.shapes != ref.shapes:
        raise _Diverged(f"the run with it changed by {sign}eps took another path (different backward calls)")
    if call.graph != ref.graph:
        raise _Diverged(f"changing it by {sign}eps builds a different graph (a branch on its value): "
                        "not differentiable there")
    return float(sum(np.sum(g * o) for g, o in zip(ref.grads, call.outputs)))


def _per_node(parsed: Any, options: Any, ref: _Call, settings: CheckSettings, report: CheckReport) -> list:
    from ..lang.run import run_prepared

    recorder = _Recorder()
    checker = _NodeChecker(recorder, settings)
    probe = _Probe(at_call=ref.index, on_call=checker)
    with _instrumented(probe, recorder):
        r = run_prepared(parsed, options)
    report.runs += 1
    if not checker.checked:
        why = f"it failed ({r.error.kind})" if r.error is not None else "it took another path"
        report.notes.append(f"--per-node: the recording run did not reach the checked backward: {why}")
        return []
    names: dict = {}
    for name, t in r.tensors:
        fn = t._grad_fn
        if fn is not None:
            names.setdefault(id(fn), name)
    out = []
    for node, res in checker.results:
        res.tensor = names.get(id(node))
        out.append(res)
    return out


# =============================================================================================
# JSON and exit status
# =============================================================================================
def _num(v: Optional[float]) -> Any:
    if v is None:
        return None
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(v)


def check_document(report: CheckReport) -> dict:
    """The ``gradcli.check/1`` object (SPEC §5): schema, ok, target, inputs; with ``--per-node`` also
    ``nodes`` and ``first_wrong_node``; ``error`` when the file itself failed."""
    doc: dict = {
        "schema": SCHEMA,
        "ok": report.ok,
        "target": report.target,
        "inputs": [
            {"name": i.name, "max_abs_error": _num(i.max_abs_error), "max_rel_error": _num(i.max_rel_error),
             "ok": i.ok}
            for i in report.inputs
        ],
    }
    if report.nodes is not None:
        doc["nodes"] = [
            {"name": n.name, "line": n.line, "tensor": n.tensor, "op": n.op, "status": n.status,
             "max_abs_error": _num(n.max_abs_error), "max_rel_error": _num(n.max_rel_error)}
            for n in report.nodes
        ]
        first = report.first_wrong_node
        doc["first_wrong_node"] = None if first is None else {"name": first.name, "line": first.line}
    err = report.run.error if report.run is not None else None
    if err is not None:
        doc["error"] = {"kind": err.kind, "line": err.line, "col": err.col, "message": err.message,
                        "hint": err.hint or ""}
    return doc


def exit_status(report: CheckReport, expect_error: Optional[str] = None) -> ExitStatus:
    """0 when every input (and node) agrees; 1 on a mismatch or when the file failed (SPEC §3).
    With ``--expect-error KIND``: 0 only when the file failed with exactly that kind."""
    if expect_error is not None:
        err = report.run.error if report.run is not None else None
        return ExitStatus.SUCCESS if err is not None and err.kind == expect_error else ExitStatus.ERROR
    return ExitStatus.SUCCESS if report.ok else ExitStatus.ERROR

