"""torch.nn.Parameter: a Tensor that a Module registers when it is assigned as an attribute.

As ``torch/nn/parameter.py``: ``Parameter(data=None, requires_grad=True)`` is
``torch.Tensor._make_subclass(Parameter, data, requires_grad)`` -- a new leaf sharing ``data``'s storage
and version counter (as ``data.detach()``), requiring grad by default even under ``no_grad``;
``Parameter()`` holds ``torch.empty(0)``.  Operations on a parameter give plain tensors (``p * 2``,
``p.data``, ``p.detach()`` are ``torch.Tensor``); it prints as ``Parameter containing:`` and the tensor.
A non-tensor ``data`` fails as PyTorch's ``data.detach()`` does there: AttributeError, kind ``runtime``.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

from ..autograd import dtypes as dt
from ..autograd.tensor import Tensor
from ..errors import ArgumentTypeError
from ._errors import nn_error

__all__ = ["Parameter", "typename", "tracked_after_init"]

#: one list per built-in module constructor running (:func:`tracked_after_init`): the parameters it made
#: with requires_grad=True, not requiring grad until the constructor returns
_DEFERRED: list = []


def tracked_after_init(init: Callable) -> Callable:
    """Decorator for a built-in module's ``__init__``: the parameters it makes start requiring grad when it
    returns, after ``reset_parameters()`` filled them in place.

    PyTorch: they require grad from creation, and the in-place init runs under no_grad, so a file cannot
    tell the difference.  ``gradcli check`` can: it perturbs a leaf when it starts requiring grad, and a
    value initialised after that point would be the one it did not perturb (every element of a Conv2d's
    weight then disagreed with finite differences).  Nested constructors (LSTM -> RNNBase) each release
    their own parameters when they return; an exception releases them too."""

    signature = inspect.signature(init)

    @functools.wraps(init)
    def wrapped(self: Any, *args: Any, **kwargs: Any) -> None:
        made: list = []
        _DEFERRED.append(made)
        try:
            init(self, *args, **kwargs)
        except TypeError as e:
            try:
                signature.bind(self, *args, **kwargs)
            except TypeError:  # wrong arguments: Python's own message (PyTorch's), the file's `type` error
                raise ArgumentTypeError(str(e)) from None
            raise
        finally:
            _DEFERRED.pop()
            for p in made:
                p._set_requires_grad(True)  # as at creation: no version bump, no graph
    return wrapped


class Parameter(Tensor):
    """A module parameter (torch.nn.Parameter); see the module docstring."""

    __slots__ = ()
    __module__ = "torch.nn.parameter"

    def __new__(cls, data: Any = None, requires_grad: bool = True) -> "Parameter":
        if data is None:
            import numpy as np

            data = Tensor._from_data(np.zeros((0,), dtype=dt.get_default_dtype().np), dt.get_default_dtype())
        if not isinstance(data, Tensor):
            raise nn_error(AttributeError, f"'{type(data).__name__}' object has no attribute 'detach'")
        base = data.detach()
        p = object.__new__(cls)
        for slot in ("_data", "_dtype", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_version", "_base",
                     "_view_fn", "_retains_grad", "_hooks", "_acc", "_inference", "_post_acc_hooks",
                     "_view_version", "_creation", "_zero"):
            setattr(p, slot, getattr(base, slot))
        if requires_grad and _DEFERRED:
            _DEFERRED[-1].append(p)
            p._set_requires_grad(False)
        else:
            p._set_requires_grad(bool(requires_grad))
        return p

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:  # noqa: D107 - built in __new__
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        # torch.Tensor.__format__ formats the item only for a plain Tensor (type(self) is Tensor)
        if spec:
            return object.__format__(self, spec)
        return str(self)


_LEGACY = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "int64": "LongTensor",
           "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor",
           "bool": "BoolTensor"}


def typename(obj: Any) -> str:
    """torch.typename: ``torch.FloatTensor`` for a float32 tensor (a Parameter too), else the Python name."""
    if isinstance(obj, Tensor):
        return "torch." + _LEGACY.get(obj.dtype.name, "Tensor")
    t = type(obj)
    mod = getattr(t, "__module__", "builtins")
    name = getattr(t, "__qualname__", t.__name__)
    if mod in ("builtins", "__builtin__", None):
        return name
    return f"{mod}.{name}"
