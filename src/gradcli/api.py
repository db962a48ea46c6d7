"""The torch-shaped namespaces an expression file sees: ``torch``, ``F`` and their sub-namespaces.

Built from the op registry (``torch.X`` and ``F.X`` names) plus the autograd
API (backward, grad, grad modes, Function, functional, checkpoint).  Each
namespace follows the exposure protocol of docs/ARCHITECTURE.md: a file can
read exactly the names in its ``_gradcli_public``.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional

import numpy as np

from .errors import ArgumentTypeError
from .autograd import dtypes as dt
from .autograd import anomaly, engine, grad_mode
from .autograd import printing as _printing
from .autograd import random as _random
from .autograd.tensor import Size, Tensor
from .ops import registry

__all__ = ["Namespace", "make_globals", "torch_namespace"]


class Namespace:
    """A read-only module-like object (``torch``, ``torch.autograd`` ...) exposing ``members``.

    ``lazy`` maps further member names to ``(module, attribute)`` -- a module of gradcli.autograd, or
    ``gradcli.MODULE`` when the name has a dot (``nn.linear``) -- or to a function making the value,
    imported or made at the first read (start-up time: most files use none of Function, gradcheck,
    functional, checkpoint, torch.nn's layers); they are public names like the others.
    ``unsupported`` names PyTorch APIs of this module that gradcli lacks: reading one is an
    ``unsupported`` error that says so (lang/access.py).
    """

    def __init__(self, name: str, members: dict[str, Any], lazy: Optional[dict[str, Any]] = None,
                 unsupported: frozenset = frozenset()) -> None:
        self._name = name
        for k, v in members.items():
            object.__setattr__(self, k, v)
        self._lazy = dict(lazy or {})
        self._gradcli_public = frozenset(members) | frozenset(self._lazy)
        self._gradcli_unsupported = frozenset(unsupported)

    def __getattr__(self, name: str) -> Any:
        # only called for a name not set yet: a lazy member's first read
        lazy = self.__dict__.get("_lazy") or {}
        if name not in lazy:
            raise AttributeError(f"module '{self.__dict__.get('_name')}' has no attribute '{name}'")
        spec = lazy[name]
        if callable(spec):
            value = spec()
        else:
            module, attr = spec
            path = f"gradcli.{module}" if "." in module else f"gradcli.autograd.{module}"
            value = getattr(importlib.import_module(path), attr)
        object.__setattr__(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"<module '{self._name}'>"


def is_tensor(obj) -> bool:
    """torch.is_tensor."""
    return isinstance(obj, Tensor)


def _tensor_arg(fn: str, input) -> Tensor:
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input


def numel(input: Tensor) -> int:
    """torch.numel."""
    return _tensor_arg("numel", input).numel()


def is_floating_point(input: Tensor) -> bool:
    """torch.is_floating_point."""
    return _tensor_arg("is_floating_point", input).is_floating_point()


def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """torch.allclose: |a - b| <= atol + rtol * |b| everywhere."""
    return bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """torch.isclose: elementwise closeness as a bool tensor."""
    return Tensor._from_data(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan), dt.bool_)


def equal(a: Tensor, b: Tensor) -> bool:
    """torch.equal: same shape and values."""
    return a._data.shape == b._data.shape and bool(np.array_equal(a._data, b._data))


def _set_detect_anomaly(mode: bool, check_nan: bool = True):
    from .autograd import anomaly

    return anomaly.set_detect_anomaly(mode, check_nan)


def torch_namespace() -> Namespace:
    """A fresh ``torch`` namespace object."""
    members: dict[str, Any] = dict(registry.torch_functions())
    dtypes = {
        "float32": dt.float32, "float": dt.float32, "float64": dt.float64, "double": dt.float64,
        "float16": dt.float16, "half": dt.float16, "int64": dt.int64, "long": dt.int64, "int32": dt.int32,
        "int": dt.int32, "int16": dt.int16, "int8": dt.int8, "uint8": dt.uint8, "bool": dt.bool_,
    }
    members.update(dtypes)
    members.update({
        "Tensor": Tensor, "Size": Size, "dtype": dt.dtype,
        "no_grad": grad_mode.no_grad, "enable_grad": grad_mode.enable_grad,
        "set_grad_enabled": grad_mode.set_grad_enabled, "inference_mode": grad_mode.inference_mode,
        "is_grad_enabled": grad_mode.is_grad_enabled,
        "is_inference_mode_enabled": grad_mode.is_inference_mode_enabled,
        "get_default_dtype": dt.get_default_dtype, "set_default_dtype": dt.set_default_dtype,
        "set_printoptions": _printing.set_printoptions,
        "is_tensor": is_tensor, "numel": numel, "allclose": allclose, "isclose": isclose, "equal": equal,
        "is_floating_point": is_floating_point,
    })
    from .autograd import device as _device

    members["device"] = _device.device
    members["cuda"] = Namespace("torch.cuda", _device.cuda_namespace_members())
    members["Generator"] = _random.TorchGenerator
    for name in ("is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled"):
        members[name] = getattr(anomaly, name)
    autograd_members: dict[str, Any] = {
        "backward": engine.backward, "grad": engine.grad, "detect_anomaly": anomaly.detect_anomaly,
        "set_detect_anomaly": anomaly.set_detect_anomaly,
        "functional": Namespace("torch.autograd.functional", {}, {
            name: ("functional", name) for name in ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp")}),
        "function": Namespace("torch.autograd.function", {}, {
            "once_differentiable": ("function", "once_differentiable"), "Function": ("function", "Function")}),
        "graph": graph_namespace(),
        "forward_ad": Namespace("torch.autograd.forward_ad", {}, {
            name: ("forward_ad", name) for name in (
                "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
                "UnpackedDualTensor")}),
    }
    autograd_members["Variable"] = Variable
    autograd_members["variable"] = Namespace("torch.autograd.variable", {"Variable": Variable})
    autograd_members["anomaly_mode"] = Namespace("torch.autograd.anomaly_mode", {
        "detect_anomaly": anomaly.detect_anomaly, "set_detect_anomaly": anomaly.set_detect_anomaly})
    members["autograd"] = Namespace("torch.autograd", autograd_members, {
        "Function": ("function", "Function"), "gradcheck": ("gradcheck", "gradcheck"),
        "gradgradcheck": ("gradcheck", "gradgradcheck")})
    members["typename"] = typename
    F = functional_namespace()
    members["nn"] = nn_namespace(F)
    members.update(legacy_constructors())
    members["utils"] = Namespace("torch.utils", {
        "checkpoint": Namespace("torch.utils.checkpoint", {}, {"checkpoint": ("checkpoint", "checkpoint")}),
        "data": data_namespace()})
    members["optim"] = optim_namespace()
    members["func"] = func_namespace()
    return Namespace("torch", members, {"vmap": ("func.vmap", "vmap")})  # (torch.vmap is torch.func.vmap)


def graph_namespace() -> Namespace:
    """A fresh ``torch.autograd.graph`` namespace (saved-tensor hooks, Node, multi-grad hooks)."""
    from .autograd.graph import Node

    return Namespace("torch.autograd.graph", {"Node": Node}, {
        name: ("graph_hooks", name) for name in (
            "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
            "allow_mutation_on_saved_tensors")})


def nn_namespace(F: Namespace) -> Namespace:
    """A fresh ``torch.nn`` namespace: its classes load at the first read (gradcli/nn/), ``functional``
    is ``F``, ``init`` holds nn.init's functions."""
    from . import nn as _nn

    init = Namespace("torch.nn.init", {}, {n: ("nn.init", n) for n in _nn.INIT_NAMES},
                     unsupported=frozenset({"trunc_normal_", "orthogonal_", "sparse_", "dirac_"}))
    # torch.nn.utils.clip_grad: the module the two clipping functions live in (nn.utils re-exports them)
    clip_grad = Namespace("torch.nn.utils.clip_grad", {}, {n: ("nn.utils", n) for n in ("clip_grad_norm_",
                                                                                        "clip_grad_value_")},
                          unsupported=frozenset({"clip_grad_norm", "get_total_norm", "clip_grads_with_norm_"}))
    utils = Namespace("torch.nn.utils", {"clip_grad": clip_grad}, {n: ("nn.utils", n) for n in _nn.UTILS_NAMES},
                      unsupported=frozenset({"clip_grad_norm", "rnn", "parametrize", "prune", "weight_norm",
                                             "spectral_norm", "stateless", "fusion", "get_total_norm"}))
    lazy = {name: (f"nn.{module}", name) for name, module in _nn.MEMBERS.items()}
    return Namespace("torch.nn", {"functional": F, "init": init, "utils": utils}, lazy, unsupported=_nn.UNSUPPORTED)


def typename(obj: Any) -> str:
    """torch.typename: ``torch.FloatTensor`` for a float32 tensor, the class's dotted name otherwise."""
    from .nn.parameter import typename as _typename

    return _typename(obj)


class _LegacyMeta(type):
    """``isinstance(t, torch.FloatTensor)``: a tensor of that dtype (PyTorch's legacy tensor types)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_class(name: str, dtype: Any) -> type:
    from .ops import creation

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return creation.legacy_new(name, dtype, args, kwargs)

    cls = _LegacyMeta(name, (), {"__new__": __new__, "_dtype": dtype, "_gradcli_public": frozenset(),
                                 "__module__": "torch"})
    return cls


_LEGACY = (("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
           ("LongTensor", "int64"), ("IntTensor", "int32"), ("ShortTensor", "int16"), ("CharTensor", "int8"),
           ("ByteTensor", "uint8"), ("BoolTensor", "bool"))


def legacy_constructors() -> dict[str, Any]:
    """``torch.FloatTensor`` ... (SPEC §2b legacy constructors)."""
    return {name: _legacy_class(name, dt.by_name(d)) for name, d in _LEGACY}


def Variable(data: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:
    """``torch.autograd.Variable(t, requires_grad=...)`` as PyTorch 2.13 runs it: a new leaf sharing ``t``'s
    data (``t.detach()``), requiring grad when asked (Variable is a deprecated alias of Tensor)."""
    if not isinstance(data, Tensor):
        raise ArgumentTypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    out = data.detach()
    if requires_grad:
        out.requires_grad_(True)
    return out


def optim_namespace() -> Namespace:
    """A fresh ``torch.optim`` namespace (with ``torch.optim.lr_scheduler``); the classes of gradcli.optim are
    imported at the first read."""
    sched = Namespace("torch.optim.lr_scheduler", {}, {
        name: ("optim.lr_scheduler", name) for name in ("LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR",
                                                           "LambdaLR")})
    modules = {"Optimizer": "optimizer", "SGD": "sgd", "Adam": "adam", "AdamW": "adam", "RMSprop": "rmsprop",
               "Adagrad": "adagrad"}
    return Namespace("torch.optim", {"lr_scheduler": sched},
                     {name: (f"optim.{module}", name) for name, module in modules.items()})


def func_namespace() -> Namespace:
    """A fresh ``torch.func`` namespace; the transforms of gradcli.func are imported at the first read."""
    from .func import MEMBERS

    return Namespace("torch.func", {}, {name: (f"func.{module}", name) for name, module in MEMBERS.items()})


def data_namespace() -> Namespace:
    """A fresh ``torch.utils.data`` namespace; the classes of gradcli.data are imported at the first read."""
    modules = {"Dataset": "dataset", "IterableDataset": "dataset", "TensorDataset": "dataset", "Subset": "dataset",
               "ConcatDataset": "dataset", "random_split": "dataset", "DataLoader": "dataloader",
               "Sampler": "sampler", "SequentialSampler": "sampler", "RandomSampler": "sampler",
               "BatchSampler": "sampler", "default_collate": "collate", "default_convert": "collate"}
    return Namespace("torch.utils.data", {}, {name: (f"data.{module}", name) for name, module in modules.items()})


def functional_namespace() -> Namespace:
    """A fresh ``torch.nn.functional`` namespace."""
    return Namespace("torch.nn.functional", dict(registry.f_functions()))


def make_globals() -> dict[str, Any]:
    """The names every expression file starts with: ``torch`` and ``F`` (SPEC §1's implicit prelude)."""
    torch = torch_namespace()
    return {"torch": torch, "F": torch.nn.functional}
