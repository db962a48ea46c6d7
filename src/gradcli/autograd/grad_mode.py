"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode.

As in ``torch/autograd/grad_mode.py``: each is a small class usable as a
context manager and as a decorator; ``set_grad_enabled(b)`` also takes effect
when merely called.  The state lives in one place (:data:`state`).
"""

from __future__ import annotations

import functools

__all__ = ["state", "is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "reset"]


class _State:
    __slots__ = ("enabled", "inference")

    def __init__(self) -> None:
        self.enabled = True
        self.inference = False


state = _State()


def reset() -> None:
    """Back to PyTorch's start-up state: grad enabled, not in inference mode."""
    state.enabled = True
    state.inference = False


def is_grad_enabled() -> bool:
    """torch.is_grad_enabled(): whether ops record a graph now."""
    return state.enabled


def is_inference_mode_enabled() -> bool:
    """torch.is_inference_mode_enabled()."""
    return state.inference


class _Mode:
    _gradcli_public = frozenset()

    def _set(self):  # returns the previous state to restore
        raise NotImplementedError

    def __enter__(self):
        self._prev = (state.enabled, state.inference)
        self._set()
        return None

    def __exit__(self, *exc) -> bool:
        state.enabled, state.inference = self._prev
        return False

    def __call__(self, fn):
        """Decorator form: run ``fn`` inside this mode."""

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args()):
                return fn(*args, **kwargs)

        return wrapper

    def _args(self):
        return ()

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.{type(self).__name__} object>"


class no_grad(_Mode):
    """Disable graph recording inside the block (torch.no_grad)."""

    def _set(self):
        state.enabled = False


class enable_grad(_Mode):
    """Enable graph recording inside the block, e.g. within no_grad (torch.enable_grad)."""

    def _set(self):
        state.enabled = True


class set_grad_enabled(_Mode):
    """torch.set_grad_enabled(mode): takes effect on construction, restored on block exit."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.mode = mode
        self._prev = (state.enabled, state.inference)
        state.enabled = mode

    def __enter__(self):
        return None

    def _args(self):
        return (self.mode,)


class inference_mode(_Mode):
    """torch.inference_mode(mode=True): like no_grad, and tensors made inside are inference tensors."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def _set(self):
        if self.mode:
            state.enabled = False
            state.inference = True

    def _args(self):
        return (self.mode,)
