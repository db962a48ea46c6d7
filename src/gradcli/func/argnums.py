"""``argnums`` of torch.func's transforms: validated, wrapped and used as torch/_functorch/eager_transforms.py
does (its messages verbatim: "Got argnum=2, but only 1 positional inputs", "argnums elements must be unique,
got (0, 0)", "argnums must be int or Tuple[int, ...], got: <class 'float'>")."""

from __future__ import annotations

from typing import Any

from ..errors import error_class
from .levels import type_repr

__all__ = ["slice_argnums", "replace_args", "runtime"]


def runtime(message: str):
    """PyTorch's RuntimeError with ``message`` (kind ``runtime``)."""
    return error_class("runtime")(message)


def _wrap_argnum(argnum: Any, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise runtime(f"argnum must be int, got: {type_repr(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise runtime(f"Got argnum={argnum}, but only {num_args} positional inputs")


def wrap_argnums(argnums: Any, num_args: int) -> Any:
    """``argnums`` with negative entries counted from the end; PyTorch's errors for bad ones."""
    if not isinstance(argnums, (int, tuple)):
        raise runtime(f"argnums must be int or Tuple[int, ...], got: {type_repr(argnums)}")
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    wrapped = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if len(wrapped) == 0:
        raise runtime("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise runtime(f"argnums elements must be unique, got {wrapped}")
    return wrapped


def slice_argnums(args: tuple, argnums: Any, as_tuple: bool = True) -> tuple[Any, Any]:
    """``(argnums wrapped, the selected args)``: one arg (a tuple of it with ``as_tuple``) for an int."""
    argnums = wrap_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return argnums, ((args[argnums],) if as_tuple else args[argnums])
    return argnums, tuple(args[i] for i in argnums)


def replace_args(args: tuple, new: Any, argnums: Any) -> tuple:
    """``args`` with the selected ones replaced by ``new`` (one value for an int argnums, else a tuple)."""
    if isinstance(argnums, int):
        return tuple(new if i == argnums else a for i, a in enumerate(args))
    return tuple(new[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))
