"""The optimizer base class: parameter groups, per-parameter state, zero_grad, state_dict (torch/optim/optimizer.py).

What a file sees follows PyTorch 2.13's ``Optimizer``:

* ``param_groups``: a list of plain dicts, ``{"params": [tensors], "lr": ..., <the optimizer's defaults in
  their order>}`` -- readable and writable (``opt.param_groups[0]["lr"] = 0.01`` changes the next step);
* ``state``: PyTorch's ``defaultdict(dict)`` keyed by parameter (:class:`OptimizerState`), filled lazily by
  ``step()`` (``opt.state[p]["exp_avg"]``);
* ``add_param_group``, ``zero_grad(set_to_none=True)``, ``state_dict()`` / ``load_state_dict()``,
  ``print(opt)``, and PyTorch's checks and messages, verbatim, with their error kinds (a ValueError is kind
  ``runtime``, a TypeError ``type``);
* ``step(closure=None)`` runs with grad mode off (PyTorch's ``_use_grad_for_differentiable``), the closure
  with grad mode on; each optimizer's update is its single-tensor loop (``_single_tensor_sgd`` ...), written
  with the engine's public tensor ops, so the version counters move as in PyTorch and nothing is recorded.

Not supported (an ``unsupported`` error naming them): ``foreach=True``, ``fused=True``, ``capturable=True``,
``differentiable=True`` (CPU PyTorch runs the single-tensor loop by default; the other paths give the same
values or need devices gradcli does not have), hooks on optimizers.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..autograd import grad_mode
from ..autograd.tensor import Tensor
from ..errors import (
    ArgumentIndexError, ArgumentTypeError, KeyErrorKind, ValueErrorKind, error_class, python_errors, warn,
)

__all__ = ["Optimizer", "OptimizerState", "required", "check_lt", "check_le", "typename", "getitem", "scalar",
           "scalar_dtype", "python_errors", "grad_of", "type_name"]


class _RequiredParameter:
    """PyTorch's marker for an option without a default (``torch.optim.optimizer.required``)."""

    _gradcli_public = frozenset()

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def typename(obj: Any) -> str:
    """``torch.typename``: ``torch.FloatTensor`` for a float32 tensor, the type's name otherwise."""
    if isinstance(obj, Tensor):
        return obj.type()
    return type_name(obj)


def type_name(obj: Any) -> str:
    """The type name Python's messages use for ``obj`` (an engine class may name itself: ``defaultdict``)."""
    name = getattr(type(obj), "_gradcli_type_name", None)
    return name if isinstance(name, str) else type(obj).__name__


def check_lt(a: Any, b: Any) -> bool:
    """``a < b`` of two values a file gave, with Python's TypeError (kind ``type``) for unorderable ones
    (PyTorch's checks run the same comparison: ``lr=None`` fails with "'<' not supported between ...")."""
    try:
        return bool(a < b)
    except TypeError as e:
        raise ArgumentTypeError(str(e)) from None


def check_le(a: Any, b: Any) -> bool:
    """``a <= b`` as :func:`check_lt`."""
    try:
        return bool(a <= b)
    except TypeError as e:
        raise ArgumentTypeError(str(e)) from None


def check_hyperparameters(lr: Any, *checks: tuple) -> None:
    """The opening checks of PyTorch's optimizers, in their order: a Tensor ``lr`` must have one element, then
    each ``(label, value)`` is ``if not 0.0 <= value: raise ValueError(f"Invalid {label}: {value}")`` (a NaN
    fails it; kind ``runtime``).  The learning rate is the first check (``Invalid learning rate``)."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueErrorKind("Tensor lr must be 1-element")
    for label, value in (("learning rate", lr),) + checks:
        if not check_le(0.0, value):
            raise ValueErrorKind(f"Invalid {label}: {value}")


def scalar(x: Any) -> Any:
    """A hyperparameter as the update loop uses it: a one-element tensor becomes its Python number (what
    PyTorch's Scalar arguments take from it); numbers pass through."""
    if isinstance(x, Tensor):
        if x.numel() != 1:
            raise ValueErrorKind("Tensor lr must be 1-element")
        return x.item()
    return x


def scalar_dtype():
    """``_get_scalar_dtype()``: the dtype of the ``step`` counters (float64 if it is the default dtype)."""
    from ..autograd import dtypes as dt

    return dt.float64 if dt.get_default_dtype() is dt.float64 else dt.float32


def getitem(seq: Any, i: Any) -> Any:
    """``seq[i]`` of a value a file gave (``betas[1]``), with Python's TypeError/IndexError as the kinds
    ``type``/``index`` (PyTorch's code indexes the same way: ``betas=(0.9,)`` is "tuple index out of range")."""
    try:
        return seq[i]
    except IndexError as e:
        raise ArgumentIndexError(str(e)) from None
    except TypeError as e:
        raise ArgumentTypeError(str(e)) from None


def grad_of(p: Any) -> Optional[Tensor]:
    """``p.grad`` of a parameter-group entry; PyTorch's AttributeError text (kind ``runtime``) for a non-tensor
    a file put there."""
    if not isinstance(p, Tensor):
        raise error_class("runtime")(f"'{type_name(p)}' object has no attribute 'grad'", torch_type=AttributeError)
    return p._grad


class OptimizerState(dict):
    """``Optimizer.state``: PyTorch's ``defaultdict(dict)`` keyed by parameter tensors.

    Reading a missing parameter inserts and returns an empty dict, as a defaultdict does; prints as
    ``defaultdict(<class 'dict'>, {...})``.  A file may use the dict methods below."""

    _gradcli_public = frozenset({"get", "keys", "values", "items", "pop", "setdefault", "update", "clear"})
    _gradcli_type_name = "defaultdict"

    def __missing__(self, key):
        value: dict = {}
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"defaultdict(<class 'dict'>, {dict.__repr__(self)})"

    __str__ = __repr__


def _deepcopy(value: Any) -> Any:
    """``copy.deepcopy`` of a state dict's plain values (dicts, lists, tuples, numbers, strings; tensors are
    cloned); other objects are kept as they are."""
    if isinstance(value, dict):
        return {k: _deepcopy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deepcopy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_deepcopy(v) for v in value)
    if isinstance(value, Tensor):
        return _cloned(value)
    return value


def _cloned(t: Tensor) -> Tensor:
    with grad_mode.no_grad():
        c = t.clone()
    if t._requires_grad:
        c.requires_grad_(True)
    return c


_UNSUPPORTED_FLAGS = ("foreach", "fused", "capturable", "differentiable")


class Optimizer:
    """Base class of the optimizers (``torch.optim.Optimizer``).

    params: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (parameter groups, each with a
    ``"params"`` entry and options overriding ``defaults``).  Raises TypeError for a tensor given directly,
    a set, a non-tensor parameter; ValueError (kind ``runtime``) for an empty list, a non-leaf tensor, a
    parameter in two groups -- PyTorch's messages.  Subclasses set their defaults and implement ``_step``.
    """
    __module__ = "torch.optim.optimizer"  # printed as PyTorch's class

    _gradcli_public = frozenset({
        "param_groups", "state", "defaults", "step", "zero_grad", "state_dict", "load_state_dict",
        "add_param_group",
    })
    _gradcli_unsupported = frozenset({
        "register_step_pre_hook", "register_step_post_hook", "register_state_dict_pre_hook",
        "register_state_dict_post_hook", "register_load_state_dict_pre_hook", "register_load_state_dict_post_hook",
    })

    def __init__(self, params: Any, defaults: dict) -> None:
        self.defaults = defaults
        for flag in _UNSUPPORTED_FLAGS:
            if defaults.get(flag):
                raise error_class("unsupported")(
                    f"{type(self).__name__}({flag}=True) is not supported by gradcli",
                    "gradcli runs PyTorch's single-tensor CPU loop (PyTorch's default on a CPU): leave "
                    f"{flag} unset.")
        self._opt_called = False
        self._scheduled = False  # an lr scheduler watches this optimizer's step() (LRScheduler's wrapper)
        if isinstance(params, Tensor):
            raise ArgumentTypeError("params argument given to the optimizer should be an iterable of Tensors or "
                                    "dicts, but got " + typename(params))
        self.state: OptimizerState = OptimizerState()
        self.param_groups: list[dict] = []
        try:
            param_groups = list(params)
        except TypeError as e:
            raise ArgumentTypeError(str(e)) from None
        if len(param_groups) == 0:
            raise ValueErrorKind("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    # -- parameter groups -----------------------------------------------------------------------------------

    @python_errors
    def add_param_group(self, param_group: dict) -> None:
        """Add a group (a dict with ``"params"``); missing options take the optimizer's defaults, in their order.
        PyTorch's TypeError/ValueError/KeyError for a bad group; a warning for a repeated parameter."""
        if not isinstance(param_group, dict):
            raise ArgumentTypeError(f"param_group must be a dict, but got {type(param_group)}")
        if "params" not in param_group:
            raise KeyErrorKind("params")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, (set, frozenset)):
            raise ArgumentTypeError(
                "optimizer parameters need to be organized in ordered collections, but the ordering of tensors "
                "in sets will change between runs. Please use a list instead.")
        else:
            try:
                param_group["params"] = list(params)
            except TypeError as e:
                raise ArgumentTypeError(str(e)) from None
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                if len(param) < 2:
                    raise ArgumentIndexError("tuple index out of range")
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueErrorKind("all optimizer params should be with/without names. Some param names are "
                                     "missing")
        for param in tensors:
            if not isinstance(param, Tensor):
                raise ArgumentTypeError("optimizer can only optimize Tensors, but one of the params is "
                                        + typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueErrorKind("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueErrorKind(
                    f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        for flag in _UNSUPPORTED_FLAGS:
            if param_group.get(flag):
                raise error_class("unsupported")(f"a parameter group with {flag}=True is not supported by gradcli")
        ids = {id(p) for p in tensors}
        if len(ids) != len(tensors):
            warn("other", "optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information")
        seen: set[int] = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueErrorKind("all optimizer param groups should be with/without names. cannot add param "
                                     f"group {which} to the optimizer")
        if not seen.isdisjoint(ids):
            raise ValueErrorKind("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- gradients ------------------------------------------------------------------------------------------

    @python_errors
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad``: to None (the default), or detached and zeroed in place."""
        for group in self.param_groups:
            for p in group["params"]:
                g = grad_of(p)
                if g is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if g._grad_fn is not None:
                            g.detach_()
                        else:
                            g.requires_grad_(False)
                        g.zero_()

    @python_errors
    def step(self, closure: Optional[Callable] = None):
        """One update of every parameter that has a gradient (parameters whose ``.grad`` is None are skipped,
        their state stays empty).  ``closure`` (re-evaluates the loss) runs first with grad mode on; its result
        is returned.  The update itself runs with grad mode off, as PyTorch's."""
        if self._scheduled:
            self._opt_called = True
        prev = grad_mode.is_grad_enabled()
        grad_mode._set_grad(False)
        try:
            loss = None
            if closure is not None:
                with grad_mode.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                self._step_group(group)
        finally:
            grad_mode._set_grad(prev)
        return loss

    def _step_group(self, group: dict) -> None:  # pragma: no cover - every optimizer defines it
        raise NotImplementedError

    # -- state dict -----------------------------------------------------------------------------------------

    @python_errors
    def state_dict(self) -> dict:
        """``{"state": {index: state}, "param_groups": [group with "params" as indices]}``: parameters are
        numbered in group order; the state dicts are the optimizer's own (not copies), as in PyTorch."""
        mapping: dict[int, int] = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                mapping.setdefault(id(p), i)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    @python_errors
    def load_state_dict(self, state_dict: dict) -> None:
        """Load a dict from :meth:`state_dict`: groups must match in number and size (PyTorch's ValueError);
        state tensors take each parameter's dtype, except ``step``; the groups' options replace the current ones
        (their ``params`` stay this optimizer's tensors)."""
        if not isinstance(state_dict, dict):
            raise ArgumentTypeError(f"'{typename(state_dict)}' object is not subscriptable")
        state_dict = dict(state_dict)
        for key in ("param_groups", "state"):
            if key not in state_dict:
                raise KeyErrorKind(key)
        groups = self.param_groups
        saved_groups = _deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueErrorKind("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueErrorKind("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        id_map = dict(zip((i for s in saved_groups for i in s["params"]), (p for g in groups for p in g["params"])))

        def cast(param: Tensor, value: Any, key: Any = None) -> Any:
            if isinstance(value, Tensor):
                if key == "step":
                    return value
                return value.to(param.dtype) if param.is_floating_point() else value
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = OptimizerState()
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v
        new_groups = []
        for group, new in zip(groups, saved_groups):
            new["params"] = group["params"]
            if "param_names" in group and "param_names" not in new:
                new["param_names"] = group["param_names"]
            new_groups.append(new)
        self.state = state
        self.param_groups = new_groups
        self._set_state_defaults()

    def _set_state_defaults(self) -> None:
        """Each optimizer's ``__setstate__``: options missing from loaded groups, a number ``step`` as a tensor."""

    # -- printing -------------------------------------------------------------------------------------------

    @python_errors  # a group key that does not sort with the others ({1e30: 0.1}) is PyTorch's TypeError too
    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"
