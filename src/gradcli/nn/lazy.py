"""Lazy modules (torch.nn.LazyLinear): parameters whose shape the first input decides.

As ``torch/nn/modules/lazy.py`` and ``torch/nn/parameter.py`` in PyTorch 2.13:

* ``LazyLinear(out_features)`` is built as ``Linear(0, 0, False)`` (its ``reset_parameters`` is a no-op
  while ``in_features == 0``, so construction draws nothing from the random stream), then its ``weight``
  (and ``bias``) become :class:`UninitializedParameter`; it prints as
  ``LazyLinear(in_features=0, out_features=N, bias=True)``.
* A forward pre-hook (registered with ``with_kwargs=True`` at construction, so before any of the file's)
  runs ``initialize_parameters(input)`` on the first call: ``in_features = input.shape[-1]``, under
  ``no_grad`` each parameter is materialized (``torch.empty``) and ``reset_parameters()`` draws Linear's
  initialisation -- at that moment of the random stream, not at construction.  Then the hook removes
  itself and the module's class becomes ``Linear``, each parameter's ``Parameter`` (the same objects, so
  an optimizer built over the uninitialized parameters updates the materialized ones).
* An uninitialized parameter prints ``<UninitializedParameter>``; reading its shape is PyTorch's
  RuntimeError; using it in an op is a ValueError.  Limitation: PyTorch's ValueError names the torch
  function (``in <method 'add' of 'torch._C.TensorBase' objects>``); gradcli's names no function.
  ``load_state_dict`` into an uninitialized module (PyTorch's ``_lazy_load_hook``) is not reproduced.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..autograd import dtypes as dt
from ..autograd import grad_mode
from ..autograd.tensor import Tensor
from ..errors import python_errors
from ._errors import nn_error
from .linear import Linear
from .parameter import Parameter

__all__ = ["UninitializedParameter", "LazyModuleMixin", "LazyLinear"]

_DATA = Tensor._data  # the slot itself: UninitializedParameter's `_data` property guards reads only

_USE = ("Attempted to use an uninitialized parameter. This error happens when you are using a `LazyModule` "
        "or explicitly manipulating `torch.nn.parameter.UninitializedParameter` objects. When using "
        "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling torch "
        "functions")
_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
          "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
          "`forward` to initialize the parameters before accessing their attributes.")


class UninitializedParameter(Parameter):
    """A parameter with no shape yet (torch.nn.parameter.UninitializedParameter); see the module docstring.

    Raises: ValueError (kind ``runtime``) when an op reads it; RuntimeError when its shape is read.
    """

    __slots__ = ()
    __module__ = "torch.nn.parameter"
    cls_to_become = Parameter
    _gradcli_uninitialized = True  # the run's tensor table lists no row for it (lang/run.py)

    def __new__(cls, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> "UninitializedParameter":
        p = Parameter.__new__(cls, None, False)
        # the flag without _set_requires_grad: `gradcli check` reads a leaf when it starts requiring grad,
        # which this one does once materialized and initialised (LazyLinear.initialize_parameters)
        p._requires_grad = bool(requires_grad)
        if dtype is not None:
            p._dtype = dtype
        return p

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:  # noqa: D107
        pass

    @property
    def _data(self) -> np.ndarray:
        raise nn_error(ValueError, _USE)

    @_data.setter
    def _data(self, value: np.ndarray) -> None:
        _DATA.__set__(self, value)

    @property
    def shape(self):  # noqa: D401 - PyTorch's property
        raise nn_error(RuntimeError, _SHAPE)

    def size(self, dim: Optional[int] = None):
        raise nn_error(RuntimeError, _SHAPE)

    def detach(self) -> "UninitializedParameter":
        """A new uninitialized parameter not requiring grad (PyTorch allows detach: ``state_dict`` uses it)."""
        return UninitializedParameter(requires_grad=False, dtype=self._dtype)

    @property
    def data(self) -> "UninitializedParameter":
        """Still uninitialized (PyTorch's ``.data`` keeps the subclass)."""
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        # Module._apply (``.double()``, ``.to(dtype)``) sets ``.data``: an uninitialized value changes only the
        # dtype that materialize will use
        if isinstance(value, UninitializedParameter):
            self._dtype = value._dtype
        else:
            Tensor.data.fset(self, value)

    def to(self, *args: Any, **kwargs: Any) -> "UninitializedParameter":
        """A new uninitialized parameter of the dtype asked for (devices: CPU only, as everywhere)."""
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, dt.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a._dtype
        return UninitializedParameter(requires_grad=False, dtype=dtype if dtype is not None else self._dtype)

    def double(self) -> "UninitializedParameter":
        return self.to(dt.float64)

    def float(self) -> "UninitializedParameter":
        return self.to(dt.float32)

    def half(self) -> "UninitializedParameter":
        return self.to(dt.float16)

    def cpu(self) -> "UninitializedParameter":
        return self

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the parameter ``torch.empty(shape)`` of its dtype and make it a ``Parameter`` (in place)."""
        if isinstance(shape, int):
            shape = (shape,)
        d = dtype if dtype is not None else self._dtype
        _DATA.__set__(self, np.empty(tuple(shape), dtype=d.np))
        self._dtype = d
        object.__setattr__(self, "__class__", self.cls_to_become)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


def _is_lazy(p: Any) -> bool:
    return isinstance(p, UninitializedParameter)


class LazyModuleMixin:
    """The first call infers the parameters' shapes (torch.nn.modules.lazy.LazyModuleMixin)."""

    cls_to_become: Optional[type] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_initialize_hook",
                           self.register_forward_pre_hook(_infer_parameters, with_kwargs=True))

    def has_uninitialized_params(self) -> bool:
        """Does any parameter or buffer still lack its shape?"""
        return any(_is_lazy(p) for p in list(self._parameters.values()) + list(self._buffers.values()))

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - each layer's own
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")


@python_errors  # lazy(x, 6): PyTorch's Python TypeError from initialize_parameters' signature
def _infer_parameters(module: Any, args: tuple, kwargs: Optional[dict] = None) -> None:
    """The forward pre-hook of a lazy module (PyTorch's ``LazyModuleMixin._infer_parameters``)."""
    kwargs = kwargs if kwargs else {}
    module.initialize_parameters(*args, **kwargs)
    if module.has_uninitialized_params():
        raise nn_error(RuntimeError, f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    object.__delattr__(module, "_initialize_hook")
    if module.cls_to_become is not None:
        object.__setattr__(module, "__class__", module.cls_to_become)


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the first input's last dimension (torch.nn.LazyLinear)."""

    __module__ = "torch.nn.modules.linear"
    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        """Linear's initialisation, once the shapes are known (a no-op before)."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """``in_features = input.shape[-1]``; materialize and initialise, under no_grad."""
        if self.has_uninitialized_params():
            made = [p for p in (self.weight, self.bias) if p is not None]
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                # the initialisation fills them as at creation: `gradcli check` perturbs a leaf when it
                # starts requiring grad (parameter.tracked_after_init)
                flags = [p._requires_grad for p in made]
                for p in made:
                    p._requires_grad = False
                self.reset_parameters()
                for p, f in zip(made, flags):
                    if f:
                        p._set_requires_grad(True)
