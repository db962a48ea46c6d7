"""Anomaly detection: ``torch.autograd.detect_anomaly`` and ``set_detect_anomaly``.

Follows ``torch/autograd/anomaly_mode.py`` and the engine side of
``torch/csrc/autograd/engine.cpp`` (``call_function``), as PyTorch 2.13 does:

* :class:`detect_anomaly` (``check_nan=True``) is a context manager only (in 2.13
  an instance is *not* callable, so it is no decorator); constructing it warns
  "Anomaly Detection has been enabled. ..." (kind ``other``);
* :class:`set_detect_anomaly` ``(mode, check_nan=True)`` takes effect when it is
  constructed, and restores the previous state when used as a ``with`` block;
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
    __slots__ = ("check_nan", "enabled")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True


state = _State()


def reset() -> None:
    """Back to PyTorch's start-up state: anomaly detection off, check_nan on."""
    state.enabled = False
    state.check_nan = True


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
