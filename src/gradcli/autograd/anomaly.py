"""Anomaly detection: ``torch.autograd.detect_anomaly`` and ``set_detect_anomaly``.

Follows ``torch/autograd/anomaly_mode.py`` and the engine side of
``torch/csrc/autograd/engine.cpp`` (``call_function``), as PyTorch 2.13 does:

* :class:`detect_anomaly` (``check_nan=True``) is a context manager only (in 2.13
  an instance is *not* callable, so it is no decorator); constructing it warns
  "Anomaly Detection has been enabled. ..." (kind ``other``);
* :class:`set_detect_anomaly` ``(mode, check_nan=True)`` takes effect when it is
  constructed, and restores the previous state when used as a ``with`` block;
* while enabled, every forward op that records through ``ops._core.record``
  is checked by :func:`forward_check`: the first op whose result holds a NaN
  (or an inf) that none of its tensor inputs held is kept in
  ``state.origins`` -- the forward origin that PyTorch's anomaly mode does not
  name (it names only the backward node; JAX's ``jax_debug_nans`` names the
  forward primitive).  gradcli reports it beside the run; the file's
  behaviour does not change;
* while enabled, the engine runs each node through :func:`apply_checked`: an
  error raised by the node is preceded by the warning "Error detected in
  NAME. Traceback of forward call that caused the error: ..." (kind
  ``other``; gradcli names the forward line instead of a Python traceback),
  and, with ``check_nan``, a node returning NaN raises
  "Function 'NAME' returned nan values in its Ith output." (kind ``runtime``).

The state lives here in :data:`state`; the engine reads ``state.enabled``
once per backward pass and calls :func:`apply_checked` only when it is set,
so a disabled anomaly mode costs nothing per node.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentTypeError, error_class, GradcliError, warn

__all__ = [
    "apply_checked",
    "detect_anomaly",
    "forward_check",
    "origin_text",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "reset",
    "set_anomaly_enabled",
    "set_detect_anomaly",
    "state",
]

_ENABLED_MSG = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                "enabled for debugging.")


class _State:
    """Anomaly mode's flags, and the forward watch.

    enabled / check_nan: PyTorch's two flags.  watch: forward ops are checked (``enabled``, or ``forced`` by
    an explainer's diagnostic rerun).  origins: the first forward op that made a NaN (``"nan"``) and an inf
    (``"inf"``) from inputs without one, as :func:`forward_check` records them.  inputs_of: with ``forced``,
    copies of the forward inputs of the nodes whose backward can divide by zero (:data:`KEEP_INPUTS`),
    keyed by ``id(node)``, for the NaN-gradient note (app/why.py).  backward_tasks: the engine's running
    passes (ops inside a backward are not forward ops).
    """
    __slots__ = ("check_nan", "enabled", "watch", "watched", "forced", "origins", "inputs_of", "kept_bytes",
                 "backward_tasks")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True
        self.watch = False
        self.watched = False  # the watch was on at some point since the last reset
        self.forced = False
        self.origins: dict = {}
        self.inputs_of: dict = {}
        self.kept_bytes = 0
        self.backward_tasks: list = []


state = _State()


def reset() -> None:
    """Back to PyTorch's start-up state: anomaly detection off, check_nan on, no forward origins kept (a
    forced watch, the explainer's setting, stays: :func:`force_watch`)."""
    state.enabled = False
    state.check_nan = True
    state.watch = state.forced
    state.watched = state.forced
    state.origins = {}
    state.inputs_of = {}
    state.kept_bytes = 0


def is_anomaly_enabled() -> bool:
    """torch.is_anomaly_enabled()."""
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """torch.is_anomaly_check_nan_enabled()."""
    return state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """torch.set_anomaly_enabled(enabled, check_nan=True): set the flags directly."""
    state.enabled = bool(enabled)
    state.check_nan = bool(check_nan)
    state.watch = state.enabled or state.forced
    state.watched |= state.watch


def force_watch(on: bool) -> None:
    """Check forward ops (and keep the inputs of :data:`KEEP_INPUTS` nodes) whether or not anomaly mode is on:
    the NaN-gradient explainer's rerun.  The run's behaviour is unchanged."""
    state.forced = bool(on)
    state.watch = state.enabled or state.forced
    state.watched |= state.watch
    if not on:
        state.inputs_of = {}
        state.kept_bytes = 0


#: nodes whose backward divides by (a function of) an input: their forward inputs are kept in a forced
#: watch, so the NaN-gradient note can say "sqrt at 0" rather than "SqrtBackward0 made a NaN"
KEEP_INPUTS = frozenset({
    "SqrtBackward0", "RsqrtBackward0", "LogBackward0", "Log2Backward0", "Log10Backward0", "Log1pBackward0",
    "DivBackward0", "DivBackward1", "ReciprocalBackward0", "PowBackward0", "PowBackward1", "PowBackward2",
    "AcosBackward0", "AsinBackward0", "AtanhBackward0", "AcoshBackward0", "NormBackward0", "NormBackward1",
    "LinalgVectorNormBackward0", "XlogyBackward0", "Atan2Backward0", "ExpBackward0", "Exp2Backward0",
})
_KEEP_MAX_BYTES = 64 << 20


def _finite_mask(data: Any):
    """None when ``data`` is not a float array; else (has_nan, has_inf)."""
    if data is None or getattr(data, "dtype", None) is None or data.dtype.kind not in "fc":
        return None
    if data.size and np.isfinite(data).all():
        return False, False
    return bool(np.isnan(data).any()), bool(np.isinf(data).any())


def summary(data: Any) -> str:
    """A short text of an array's values: the values themselves up to 6 elements (``[0., 2., 4.]``), else its
    shape, min and max, and how many elements are 0, NaN or inf."""
    a = np.asarray(data)
    if a.size <= 6:
        vals = ", ".join(_num(v) for v in a.reshape(-1).tolist())
        return vals if a.ndim == 0 else f"[{vals}]"
    parts = [f"shape [{', '.join(map(str, a.shape))}]"]
    if a.dtype.kind in "fiub":
        fin = a[np.isfinite(a)] if a.dtype.kind == "f" else a
        if fin.size:
            parts.append(f"min {_num(fin.min().item())}, max {_num(fin.max().item())}")
        for what, n in (("0", int(np.count_nonzero(a == 0))),
                        ("NaN", int(np.count_nonzero(np.isnan(a))) if a.dtype.kind == "f" else 0),
                        ("inf", int(np.count_nonzero(np.isinf(a))) if a.dtype.kind == "f" else 0)):
            if n:
                parts.append(f"{n} × {what}")
    return ", ".join(parts)


def _num(v: Any) -> str:
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return f"{v:.4g}" if v != int(v) or abs(v) >= 1e16 else f"{int(v)}."
    return str(v)


def forward_check(node_cls: Any, data: Any, inputs: tuple, node: Any, loc: Any) -> None:
    """Called by ``ops._core.record`` while ``state.watch``: note the first forward op whose result holds a
    NaN (an inf) that none of its tensor inputs held, and (forced watch) keep the inputs of a
    :data:`KEEP_INPUTS` node.  Ops run by a backward pass are not checked.  Never raises into the op."""
    if state.backward_tasks:
        return
    try:
        _forward_check(node_cls, data, inputs, node, loc)
    except Exception:  # noqa: BLE001 - a diagnostic never changes the run (a MemoryError of its mask included)
        pass


def _forward_check(node_cls: Any, data: Any, inputs: tuple, node: Any, loc: Any) -> None:
    name = getattr(node_cls, "__name__", str(node_cls))
    if state.forced and node is not None and name in KEEP_INPUTS and state.kept_bytes < _KEEP_MAX_BYTES:
        kept = tuple(None if t is None else np.array(t._data, copy=True) for t in inputs)
        state.kept_bytes += sum(k.nbytes for k in kept if k is not None)
        state.inputs_of[id(node)] = (node, kept)
    if "nan" in state.origins and "inf" in state.origins:
        return
    bad = _finite_mask(data)
    if not bad or not (bad[0] or bad[1]):
        return
    had_nan = had_inf = False
    for t in inputs:
        m = _finite_mask(getattr(t, "_data", None)) if t is not None else None
        if m:
            had_nan |= m[0]
            had_inf |= m[1]
    for kind, now, before in (("nan", bad[0], had_nan), ("inf", bad[1], had_inf)):
        if now and not before and kind not in state.origins:
            line, col = (loc[0], loc[1]) if isinstance(loc, tuple) and len(loc) >= 2 else (None, None)
            arr = np.asarray(data)
            count = int(np.count_nonzero(np.isnan(arr) if kind == "nan" else np.isinf(arr)))
            state.origins[kind] = {
                "kind": kind, "line": line, "col": col, "node": name, "op": _op_name(name),
                "inputs": [summary(t._data) if t is not None else None for t in inputs],
                "output": summary(arr), "count": count, "numel": int(arr.size),
                "inputs_had": sorted(k for k, had in (("nan", had_nan), ("inf", had_inf)) if had),
            }


def _op_name(node_name: str) -> str:
    """``LogBackward0`` -> ``log``: the forward op a node's name stands for (PyTorch names nodes OpBackwardN)."""
    base = node_name.split("Backward")[0] if "Backward" in node_name else node_name
    out = ""
    for i, ch in enumerate(base):
        out += ("_" if i and ch.isupper() and not base[i - 1].isupper() else "") + ch.lower()
    return out


def origin_text(o: dict) -> str:
    """One line for a forward origin: ``log (LogBackward0) made 1 of 3 elements -inf from finite inputs ...``."""
    what = "NaN" if o["kind"] == "nan" else "inf"
    ins = [s for s in o.get("inputs") or () if s is not None]
    frm = "; its input" + ("s were " if len(ins) > 1 else " was ") + " and ".join(ins) if ins else ""
    had = o.get("inputs_had") or []
    note = f" (its inputs already held {' and '.join('NaN' if k == 'nan' else 'inf' for k in had)})" if had else ""
    return (f"{o['op']} ({o['node']}) made the first {what}: {o['count']} of {o['numel']} element"
            f"{'s' if o['numel'] != 1 else ''} of its result{note}{frm}.")


class detect_anomaly:
    """Context manager enabling anomaly detection inside the block (torch.autograd.detect_anomaly).

    check_nan: also raise when a backward node returns NaN.  Warns (kind
    ``other``) when constructed, as PyTorch does.
    """
    __module__ = "torch.autograd.anomaly_mode"  # printed as PyTorch's class

    _gradcli_public: frozenset = frozenset()

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = state.enabled
        self.check_nan = check_nan
        self.prev_check_nan = state.check_nan
        warn("other", _ENABLED_MSG)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self) -> str:
        return "<torch.autograd.anomaly_mode.detect_anomaly object>"


class set_detect_anomaly:
    """torch.autograd.set_detect_anomaly(mode, check_nan=True): on or off now; a ``with`` block restores."""
    __module__ = "torch.autograd.anomaly_mode"  # printed as PyTorch's class

    _gradcli_public: frozenset = frozenset()

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        if not isinstance(mode, bool):
            raise ArgumentTypeError(f"set_detect_anomaly(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.prev = state.enabled
        self.prev_check_nan = state.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self) -> str:
        return "<torch.autograd.anomaly_mode.set_detect_anomaly object>"


def _has_nan(g: Any) -> bool:
    data = getattr(g, "_data", None)
    if data is None or data.dtype.kind != "f":
        return False
    return bool(np.isnan(data).any())


def _error_detected(node: Any) -> None:
    line = getattr(node, "_line", None)
    where = f"\n  line {line} of the file" if line is not None else "\n  (not recorded)"
    warn("other", f"Error detected in {_name(node)}. Traceback of forward call that caused the error:{where}")


def _forward_line(node: Any, err: BaseException) -> None:
    """Name the forward line that created ``node`` on ``err`` (``related``, role ``forward``), as
    PyTorch's anomaly mode prints the traceback of the forward call."""
    if not isinstance(err, GradcliError):
        return
    line = getattr(node, "_line", None)
    if line is None:
        return
    entry = {"role": "forward", "line": line, "col": getattr(node, "_col", None),
             "text": f"{_name(node)} was created here (its forward operation)"}
    related = list(getattr(err, "related", None) or [])
    if entry not in related:
        err.related = related + [entry]


def apply_checked(node: Any, grads: list) -> tuple:
    """Run ``node.apply(grads)`` under anomaly mode (called by the engine only while enabled).

    An exception from the node is re-raised after the "Error detected in ..."
    warning, naming the node's forward line (``related``); with check_nan, the
    first output holding a NaN raises "Function 'NAME' returned nan values in its
    Ith output." (PyTorch's message), naming that line too.
    """
    try:
        outs = node.apply(grads)
    except BaseException as e:
        if isinstance(e, (Exception,)) and not _is_control_flow(e):
            _error_detected(node)
            _forward_line(node, e)
        raise
    if state.check_nan:
        for i, g in enumerate(outs):
            if g is not None and _has_nan(g):
                _error_detected(node)
                line = getattr(node, "_line", None)
                where = f" (created at line {line} of the file)" if line is not None else ""
                err = error_class("runtime")(
                    f"Function '{_name(node)}' returned nan values in its {i}th output{where}.",
                    "A backward formula produced NaN (e.g. 0/0, log(0) * 0, sqrt at 0); the 'forward' line "
                    "below is the operation whose gradient it is.",
                )
                _forward_line(node, err)
                raise err
    return outs


def _name(node: Any) -> str:
    # through the class: a custom Function's ctx may shadow ``name`` with a user attribute
    return type(node).name(node)


def _is_control_flow(e: BaseException) -> bool:
    # a limit hit (time/steps) is not an anomaly of the node
    return isinstance(e, GradcliError) and e.kind == "limit"
