"""What ``gradcli graph --values`` shows on a node: its output's value and the gradient that flowed into it.

PyTorch's nodes keep neither (a ``grad_fn`` has no reference to its result, and the gradient it receives is
gone once it ran), so both are recorded while the file runs, only when asked (RunOptions.values):

* ``ops/_core.value_sink`` is called with each result that gets a ``grad_fn`` (``record``): its value is
  summarised *then* (:func:`summary`), before any later in-place change;
* ``engine.arrival_sink`` is given the gradients of a node's outputs where PyTorch calls the node's
  ``register_prehook`` hooks (before it runs), and the engine's ``trace_sink`` one event per node it ran
  (for leaves, ``AccumulateGrad``): the last backward pass that reached a node wins.

Only summaries are kept (a few numbers per tensor), never the tensors, so the memory cost is a small dict per
node.  Nodes are keyed by ``id`` and checked through a weak reference, so a node freed during the run and an
unrelated later node at the same address are never confused.
"""

from __future__ import annotations

import math
import weakref
from typing import Any, Optional

import numpy as np

__all__ = ["ValueLog", "summary", "SMALL"]

#: tensors with at most this many elements are summarised by their values, larger ones by min/max/mean
SMALL = 6


def _num(v: Any) -> Any:
    """A JSON-able number: ints stay ints, floats rounded to float64, non-finite as "nan"/"inf"/"-inf"."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def summary(data: np.ndarray, dtype_name: str) -> dict:
    """``{"dtype", "shape", "data"}`` for a tensor of at most :data:`SMALL` elements (its values, flattened),
    else ``{"dtype", "shape", "min", "max", "mean"}`` (NaN-propagating as torch.min/max/mean; mean of a
    bool/int tensor as float64); a complex tensor gets only dtype and shape."""
    arr = np.asarray(data)
    out: dict = {"dtype": dtype_name, "shape": [int(s) for s in arr.shape]}
    if np.iscomplexobj(arr):
        return out
    if arr.size <= SMALL:
        out["data"] = [_num(v) for v in arr.reshape(-1).tolist()]
        return out
    with np.errstate(all="ignore"):
        out["min"] = _num(arr.min())
        out["max"] = _num(arr.max())
        out["mean"] = _num(arr.mean(dtype=np.float64))
    return out


def tensor_summary(t: Any) -> Optional[dict]:
    """:func:`summary` of a gradcli Tensor (None for None)."""
    if t is None:
        return None
    return summary(t._data, t._dtype.name)


class ValueLog:
    """The values and gradients of one run (see the module doc).  Installed by lang/run.py as
    ``ops._core.value_sink`` (:meth:`on_record`), ``engine.arrival_sink`` (:meth:`arrived`) and
    ``engine.trace_sink`` (:meth:`append`)."""

    def __init__(self) -> None:
        self._values: dict[int, tuple[Any, dict[int, dict]]] = {}
        self._grads: dict[int, tuple[Any, int, list]] = {}
        self._runs: dict[int, int] = {}  # id(node) -> how many backward passes ran it
        self.passes = 0  # backward passes that ran at least one node
        self._task = None
        self._events = 0

    def __len__(self) -> int:  # engine._trace numbers its events by the sink's length
        return self._events

    # --- recording (hot while the file runs) --------------------------------------------------------
    def on_record(self, out: Any, node: Any) -> None:
        """A result ``out`` of ``node`` was made: keep its summary (output ``out._output_nr``)."""
        key = id(node)
        entry = self._values.get(key)
        if entry is None or entry[0]() is not node:
            entry = (weakref.ref(node), {})
            self._values[key] = entry
        entry[1][int(getattr(out, "_output_nr", 0) or 0)] = tensor_summary(out)

    def _pass(self) -> None:
        from . import engine

        task = engine.current_graph_task_id()
        if task != self._task:
            self._task = task
            self.passes += 1

    def arrived(self, node: Any, grads: list) -> None:
        """``grads`` reached ``node``, about to run (engine.arrival_sink: where PyTorch calls the node's
        register_prehook hooks, so a node whose backward then fails still shows what reached it)."""
        self._pass()
        self._keep(node, grads)

    def append(self, ev: dict) -> None:
        """One node the engine ran (engine._trace's event): a leaf's AccumulateGrad (op nodes are reported
        by :meth:`arrived`)."""
        self._events += 1
        self._pass()
        node = ev.get("grad_fn")
        if node is not None and "accumulated_into" in ev:
            self._keep(node, ev.get("grad_in", ()))

    def _keep(self, node: Any, grads: Any) -> None:
        key = id(node)
        old = self._grads.get(key)
        if old is not None and old[0]() is not node:
            self._runs.pop(key, None)
        self._grads[key] = (weakref.ref(node), self.passes, [tensor_summary(g) for g in grads])
        self._runs[key] = self._runs.get(key, 0) + 1

    # --- reading (app/graph.py) -------------------------------------------------------------------
    def value_of(self, node: Any) -> dict[int, dict]:
        """output_nr -> summary of each recorded result of ``node`` ({} when none was recorded)."""
        entry = self._values.get(id(node))
        return dict(entry[1]) if entry is not None and entry[0]() is node else {}

    def grads_of(self, node: Any) -> Optional[tuple[list, int, int]]:
        """(summaries of the gradients of each output -- None where none arrived --, the pass number, how
        many passes ran the node) for the last backward pass that ran ``node``; None when none did."""
        entry = self._grads.get(id(node))
        if entry is None or entry[0]() is not node:
            return None
        return entry[2], entry[1], self._runs.get(id(node), 1)
