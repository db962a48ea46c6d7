"""The state of torch.autograd.forward_ad's level (autograd/forward_ad.py), in a module of its own so that
graph.py can read it without importing numpy (gradcli.lang imports graph.py and must not import numpy)."""

from __future__ import annotations

from typing import Optional

__all__ = ["state"]


class _State:
    __slots__ = ("level", "serial", "busy", "pending", "raw", "dual_op")

    def __init__(self) -> None:
        self.level: Optional[int] = None  # 0 inside dual_level (PyTorch supports one level)
        self.serial = 0  # tangents are (serial, value): a level's exit makes every older one void
        self.busy = 0  # computing a tangent (or a custom Function's forward): ops propagate none
        self.pending: list = []  # [(weakref(out), _Pending)] whose product is not computed yet
        self.raw: dict = {}  # node -> what it saved, as given (its saved tensors went through pack hooks)
        self.dual_op = False  # the op being recorded has a dual input: it saves every tensor its rule may read


state = _State()
