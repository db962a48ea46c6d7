"""Live PyTorch side of the ``graph --values`` / ``--show-saved`` tests: run a file under PyTorch 2.13 and
record, for every node, what gradcli claims about it.

* the value of each result that got a ``grad_fn`` (a ``TorchFunctionMode`` sees every torch function and
  Tensor method and its result; the value is cloned *then*, before later in-place changes);
* the gradient that flowed into each node, from ``grad_fn.register_prehook`` (the gradients of the node's
  outputs), the last backward pass that ran the node winning, and how many passes ran it;
* the graph walked from the same roots in the same order as app/graph.py (breadth first over
  ``next_functions``), so gradcli's node *i* is PyTorch's node *i*.

Files are run with the implicit prelude of the conformance oracle (``import torch``,
``import torch.nn.functional as F``); the file's own exception (a snippet that stops at an error) is kept.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections import deque
from pathlib import Path
from typing import Any, Optional

import torch
from torch.overrides import TorchFunctionMode

REAL = Path(__file__).resolve().parent / "data" / "graph_real"
PRELUDE = "import torch\nimport torch.nn.functional as F\n"


class Capture(TorchFunctionMode):
    """Every result with a grad_fn (value at creation) and every node's incoming gradients."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict = {}  # node -> {output_nr: tensor}
        self.grads: dict = {}  # node -> [grad per output] of the last pass
        self.runs: dict = {}  # node -> passes that ran it
        self.keep: list = []  # the nodes, alive (a freed node's id could be reused)
        self.hooked: set = set()
        # node -> {"_saved_self": tensor, ...}: each node's saved tensors read when the node is first seen
        # (before a backward frees them), for graph --show-saved's "what it is"; on with keep_saved
        self.saved: dict = {}
        self.keep_saved = False

    def _hook(self, node):
        def pre(grad_outputs):
            self.grads[node] = [None if g is None else g.detach().clone() for g in grad_outputs]
            self.runs[node] = self.runs.get(node, 0) + 1
        return pre

    def _watch(self, fn) -> None:
        """A prehook on ``fn`` and on every node behind it not seen yet (nodes a C++ composite or a custom
        Function made have no Python result of their own)."""
        stack = [fn]
        while stack:
            n = stack.pop()
            if n is None or n in self.hooked:
                continue
            self.hooked.add(n)
            self.keep.append(n)
            if self.keep_saved:
                self.saved[n] = saved_fields(n)
            if type(n).__name__ != "torch::autograd::AccumulateGrad" and not hasattr(n, "variable"):
                n.register_prehook(self._hook(n))
            stack.extend(c for c, _ in n.next_functions)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.seen(out)
        return out

    def seen(self, out) -> None:
        """Watch the nodes of ``out`` (a result, or a tuple of them) and keep their values."""
        stack = [out]
        while stack:
            t = stack.pop()
            if isinstance(t, (tuple, list)):
                stack.extend(t)
            elif isinstance(t, torch.Tensor) and t.grad_fn is not None:
                fn = t.grad_fn
                self._watch(fn)
                with torch.no_grad():
                    self.values.setdefault(fn, {})[t.output_nr] = t.detach().clone()


def saved_fields(node) -> dict:
    """The tensors ``node`` saved, by PyTorch's attribute name (``saved_tensors[i]`` for a custom Function's);
    a field that cannot be read now is left out."""
    out: dict = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                v = getattr(node, name)
            except RuntimeError:
                continue
            if isinstance(v, torch.Tensor):
                out[name] = v
    if hasattr(node, "saved_tensors"):
        try:
            for i, v in enumerate(node.saved_tensors):
                out[f"saved_tensors[{i}]"] = v
        except RuntimeError:
            pass
    return out


def run_torch(path: Path, keep_saved: bool = False) -> tuple[dict, Capture, Optional[BaseException]]:
    """(the file's namespace, the capture, the file's exception or None) of ``path`` under PyTorch;
    ``keep_saved``: also read every node's saved tensors when it is first seen (Capture.saved)."""
    src = path.read_text(encoding="utf-8")
    g: dict = {"__name__": "__main__"}
    cap = Capture()
    cap.keep_saved = keep_saved
    err = None
    Function = torch.autograd.function.Function
    orig = Function.__dict__["apply"]

    def apply(cls, *args, **kwargs):  # a custom Function's result is no torch function's: seen here
        out = orig.__func__(cls, *args, **kwargs)
        cap.seen(out)
        return out

    Function.apply = classmethod(apply)
    try:
        with contextlib.redirect_stdout(io.StringIO()), cap:
            try:
                exec(compile(PRELUDE + src, str(path), "exec"), g)
            except Exception as e:  # noqa: BLE001 - the snippet's own error: the graph is what it built
                err = e
    finally:
        Function.apply = orig
    return g, cap, err


def walk(roots: list) -> list:
    """PyTorch's nodes from ``roots`` in app/graph.py's order (breadth first, next_functions in order)."""
    seen = set()
    order = []
    queue: deque = deque()
    for fn in roots:
        if fn not in seen:
            seen.add(fn)
            order.append(fn)
            queue.append(fn)
    while queue:
        fn = queue.popleft()
        for child, _ in fn.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                order.append(child)
                queue.append(child)
    return order


def _close(a: Any, b: float, dtype: str) -> bool:
    if a in ("nan", "inf", "-inf") or (isinstance(b, float) and not math.isfinite(b)):
        return str(a) == ("nan" if math.isnan(b) else ("inf" if b > 0 else "-inf"))
    rtol, atol = (1e-10, 1e-12) if dtype == "float64" else (1e-5, 1e-6)
    return abs(float(a) - b) <= atol + rtol * abs(b)


def matches(summary: Optional[dict], t: Optional[torch.Tensor]) -> bool:
    """Does gradcli's summary (autograd/values.py) describe the PyTorch tensor ``t``?"""
    if summary is None or t is None:
        return summary is None and t is None
    dtype = str(t.dtype).removeprefix("torch.")
    if summary["dtype"] != dtype or summary["shape"] != list(t.shape):
        return False
    if "data" not in summary and "min" not in summary:  # dtype and shape only (complex; not recorded)
        return True
    if "data" in summary:
        flat = t.reshape(-1).tolist()
        return len(flat) == len(summary["data"]) and all(_close(a, float(b), dtype)
                                                         for a, b in zip(summary["data"], flat))
    d = t.double()
    return (_close(summary["min"], d.min().item(), dtype) and _close(summary["max"], d.max().item(), dtype)
            and _close(summary["mean"], d.mean().item(), "float32" if dtype == "float32" else dtype))
