"""torch.func.functional_call: call a module with some of its parameters and buffers replaced, as
torch/_functorch/functional_call.py and torch/nn/utils/stateless.py do it.

The given tensors are swapped into the module's ``_parameters`` / ``_buffers`` (or set as plain attributes)
for the call and the originals put back afterwards, even when the call fails; with ``tie_weights`` a name
tied to a given one (the same tensor under two names) gets the same value; ``strict`` is PyTorch's
"Error(s) in reparametrizing for ..." for missing or unexpected keys.
"""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..errors import ArgumentTypeError, ValueErrorKind, error_class
from .levels import type_repr

__all__ = ["functional_call"]

_MISSING = object()


def _owner(module: Any, name: str) -> tuple[Any, str]:
    if not isinstance(name, str):
        raise ArgumentTypeError(f"functional_call: a name must be a str, got {type_repr(name)}")
    parts = name.split(".")
    if any(p.startswith("_") or not p for p in parts):
        # the names a file may reach on a module (exposure protocol): no `_` name is swapped
        raise error_class("unsupported")(f"functional_call: gradcli swaps only names without a leading '_' "
                                         f"(got '{name}')", "Pass the parameter and buffer names of "
                                         "named_parameters() / named_buffers().")
    *path, leaf = parts
    for part in path:
        module = module.get_submodule(part)
    return module, leaf


def _swap(module: Any, name: str, tensor: Any) -> Any:
    """PyTorch's ``swap_tensor``: put ``tensor`` (or remove, for _MISSING) under ``name``; return the old one.
    A plain attribute goes through the module's own ``__setattr__``/``__delattr__``, as in PyTorch."""
    from ..nn.module import Module

    if not isinstance(module, Module):
        raise ArgumentTypeError(f"{module} is not an instance of torch.nn.Module")
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, Tensor):
        raise ArgumentTypeError(f"{tensor} is not an instance of torch.Tensor")
    params, buffers = module.__dict__["_parameters"], module.__dict__["_buffers"]
    for store in (params, buffers):
        if name in store:
            orig = store[name]
            if tensor is _MISSING:
                del store[name]
            else:
                store[name] = tensor
            return orig
    orig = getattr(module, name, _MISSING)
    if orig is not _MISSING and orig is not None and not isinstance(orig, Tensor):
        raise ArgumentTypeError(f"attribute `{name}`: {orig} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return orig


def _tied(module: Any, given: dict) -> dict:
    """``given`` plus every name tied to one of its names (``_untie_named_tensors_map``)."""
    names_of: dict[int, list] = {}
    for name, t in list(module.named_parameters(remove_duplicate=False)) + \
            list(module.named_buffers(remove_duplicate=False)):
        names_of.setdefault(id(t), []).append(name)
    out = dict(given)
    for names in names_of.values():
        if len(names) < 2:
            continue
        values = [given[n] for n in names if n in given]
        if values:
            for n in names:
                out.setdefault(n, values[0])
    return out


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with the tensors of ``parameter_and_buffer_dicts`` (a dict name -> Tensor, or
    a tuple/list of such dicts with distinct keys) in place of the module's own; ``args`` not a tuple is one
    argument.  Raises PyTorch's ValueError for a sequence holding a non-dict or repeated keys."""
    if isinstance(parameter_and_buffer_dicts, dict):
        given = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (tuple, list)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueErrorKind("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts: dict = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueErrorKind(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                                 "ambiguous")
        given = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueErrorKind(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but "
                             f"got {type_repr(parameter_and_buffer_dicts)}")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    tensors = _tied(module, given) if tie_weights else dict(given)
    if strict:
        _check_keys(module, tensors)
    originals: dict = {}
    try:
        for name, t in tensors.items():
            owner, leaf = _owner(module, name)
            originals[name] = _swap(owner, leaf, t)
        return module(*args, **kwargs)
    finally:
        for name, t in reversed(list(originals.items())):
            owner, leaf = _owner(module, name)
            _swap(owner, leaf, t)


def _check_keys(module: Any, tensors: dict) -> None:
    keys = {n for n, _ in module.named_parameters(remove_duplicate=False)} | \
        {n for n, _ in module.named_buffers(remove_duplicate=False)}
    missing = sorted(keys - set(tensors))
    unexpected = sorted(set(tensors) - keys)
    msgs = []
    if unexpected:
        msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if msgs:
        raise error_class("runtime")("Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(),
                                                                                    "\n\t".join(msgs)))
