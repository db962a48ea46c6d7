"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode.

As in ``torch/autograd/grad_mode.py``: each is a small class usable as a
context manager and as a decorator; ``set_grad_enabled(b)`` also takes effect
when merely called.  The state lives in one place (:data:`state`).

Decorators, as PyTorch 2.13 has them: ``@torch.no_grad`` / ``@torch.enable_grad``
work with and without parentheses (``_NoParamDecoratorContextManager``: called
with a function, the class decorates it); ``@torch.inference_mode`` likewise
(a bool argument is the mode, anything else the function); a decorating
``set_grad_enabled(b)`` restores the mode it changed when it was made.
``inference_mode(False)`` is normal mode (grad on, not inference), as
``c10::InferenceMode(false)`` sets it.
"""

from __future__ import annotations

import functools
from ..errors import ArgumentTypeError

__all__ = ["state", "is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "reset"]


class _State:
    """enabled: ops record a graph; inference: inside inference_mode; inference_grad: the grad mode that
    enable_grad/set_grad_enabled asked for inside inference_mode, which torch.is_grad_enabled() reports
    while recording stays off (PyTorch excludes autograd in inference mode whatever the grad mode)."""

    __slots__ = ("enabled", "inference", "inference_grad")

    def __init__(self) -> None:
        self.enabled = True
        self.inference = False
        self.inference_grad = False


state = _State()


def reset() -> None:
    """Back to PyTorch's start-up state: grad enabled, not in inference mode."""
    state.enabled = True
    state.inference = False
    state.inference_grad = False


def is_grad_enabled() -> bool:
    """torch.is_grad_enabled(): the grad mode (inside inference_mode, what enable_grad asked for)."""
    return state.inference_grad if state.inference else state.enabled


def _set_grad(flag: bool) -> None:
    if state.inference:
        state.inference_grad = flag  # recording stays off in inference mode
    else:
        state.enabled = flag


def is_inference_mode_enabled() -> bool:
    """torch.is_inference_mode_enabled()."""
    return state.inference


class _Mode:
    _gradcli_public = frozenset()

    def _set(self):  # returns the previous state to restore
        raise NotImplementedError

    def __enter__(self):
        self._prev = (state.enabled, state.inference, state.inference_grad)
        self._set()
        return None

    def __exit__(self, *exc) -> bool:
        state.enabled, state.inference, state.inference_grad = self._prev
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


class _NoParam(_Mode):
    """``@torch.no_grad`` without parentheses: the class called with the function decorates it."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParam):
    """Disable graph recording inside the block (torch.no_grad)."""
    __module__ = "torch.autograd.grad_mode"  # printed as PyTorch's class

    def _set(self):
        _set_grad(False)


class enable_grad(_NoParam):
    """Enable graph recording inside the block, e.g. within no_grad (torch.enable_grad)."""
    __module__ = "torch.autograd.grad_mode"  # printed as PyTorch's class

    def _set(self):
        _set_grad(True)


class set_grad_enabled(_Mode):
    """torch.set_grad_enabled(mode): takes effect on construction, restored on block exit."""
    __module__ = "torch.autograd.grad_mode"  # printed as PyTorch's class

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise ArgumentTypeError(f"set_grad_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.mode = mode
        self._prev = (state.enabled, state.inference, state.inference_grad)
        _set_grad(mode)

    def __enter__(self):
        return None

    def __call__(self, fn):
        # made as a decorator: the mode it set on construction is undone (PyTorch's set_grad_enabled.__call__)
        state.enabled, state.inference, state.inference_grad = self._prev
        return super().__call__(fn)

    def _args(self):
        return (self.mode,)


class inference_mode(_Mode):
    """torch.inference_mode(mode=True): like no_grad, and tensors made inside are inference tensors;
    ``inference_mode(False)`` is normal mode (grad on).  Without parentheses, a decorator."""
    __module__ = "torch.autograd.grad_mode"  # printed as PyTorch's class

    def __new__(cls, mode=True):
        if mode is None or isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def _set(self):
        if self.mode:
            state.enabled = False
            state.inference = True
            state.inference_grad = False
        else:
            state.enabled = True
            state.inference = False
            state.inference_grad = False

    def _args(self):
        return (self.mode,)
