"""vmap's batched tensors, as the engine sees them (torch.func.vmap, gradcli/func/vmap.py).

gradcli's vmap runs the function once per sample (func/vmap.py); while it does, the per-sample inputs and
every tensor an op computes from one of them are *batched* -- what PyTorch's BatchedTensor would be -- so
the engine can refuse, with functorch's own messages, what PyTorch refuses on a batched tensor: ``.item()``
and every conversion to a Python number (``float``, ``int``, an index), ``bool`` (data-dependent control
flow), and a random op in ``randomness='error'`` mode; and say ``unsupported`` where a per-sample run would
differ from PyTorch's batched one (printing a batched tensor, ``tolist``/``numpy``, random draws in
``'different'`` mode).  A tensor made before the vmap call (a closure's constant) is not batched, as in
PyTorch.  Leaf module of the engine: ops/_core.record marks results (:func:`mark`), tensor.py and random.py
ask (:func:`check_scalar`, :func:`on_draw`); nothing here costs anything outside vmap (``state.depth`` 0).
"""

from __future__ import annotations

import weakref
from typing import Any

from ..errors import error_class

__all__ = ["state", "mark", "is_batched", "check_scalar", "on_draw", "reset", "ITEM_MESSAGE",
           "CONTROL_FLOW_MESSAGE", "RANDOM_MESSAGE"]

ITEM_MESSAGE = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() "
                "on a Tensor, please try to rewrite what you're doing with other operations. If error is occurring "
                "somewhere inside PyTorch internals, please file a bug report.")
CONTROL_FLOW_MESSAGE = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
                        "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues .")
RANDOM_MESSAGE = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                  "'different' randomness flags on vmap or perform the randomness operation out of vmap")


class _State:
    __slots__ = ("depth", "marks", "randomness")

    def __init__(self) -> None:
        self.depth = 0  # vmap calls running a sample now
        self.marks: dict[int, Any] = {}  # id(batched tensor) -> weakref to it
        self.randomness: list[str] = []  # the randomness= of each running vmap, innermost last


state = _State()


def reset() -> None:
    """No vmap running (a new run)."""
    state.depth = 0
    state.marks.clear()
    state.randomness.clear()


def add(t: Any) -> None:
    """Mark ``t`` batched (a per-sample input)."""
    key = id(t)
    state.marks[key] = weakref.ref(t, lambda _r, k=key: state.marks.pop(k, None))


def is_batched(t: Any) -> bool:
    """Is ``t`` a batched tensor of the running vmap?"""
    ref = state.marks.get(id(t))
    return ref is not None and ref() is t


def mark(out: Any, inputs: tuple) -> None:
    """ops/_core.record inside vmap: ``out`` is batched when one of the op's tensor inputs is."""
    marks = state.marks
    for t in inputs:
        if t is not None:
            ref = marks.get(id(t))
            if ref is not None and ref() is t:
                add(out)
                return
            base = getattr(t, "_base", None)
            if base is not None:
                ref = marks.get(id(base))
                if ref is not None and ref() is base:
                    add(out)
                    return


def check_scalar(t: Any, what: str) -> None:
    """Tensor.item / float / int / index (``what="item"``), bool (``"bool"``), tolist / numpy / printing:
    PyTorch's vmap error, or ``unsupported`` where a per-sample run cannot show what PyTorch shows."""
    if not is_batched(t):
        return
    if what == "item":
        raise error_class("runtime")(ITEM_MESSAGE)
    if what == "bool":
        raise error_class("runtime")(CONTROL_FLOW_MESSAGE)
    raise error_class("unsupported")(
        f"{what} of a batched tensor inside torch.func.vmap: gradcli runs the function once per sample, so it "
        "cannot show what PyTorch's BatchedTensor gives here",
        "Move it out of the vmapped function, or compute on the whole batch without vmap.")


def on_draw() -> None:
    """A random draw (autograd/random.py) while a vmap runs its function."""
    if not state.randomness:
        return
    mode = state.randomness[-1]
    if mode == "error":
        raise error_class("runtime")(RANDOM_MESSAGE)
    if mode == "different":
        raise error_class("unsupported")(
            "a random op inside torch.func.vmap(..., randomness='different'): gradcli runs the function once per "
            "sample and cannot reproduce the order of PyTorch's batched draws",
            "Draw the random tensor for the whole batch before vmap and pass it in (in_dims=0).")

