"""Import statements (SPEC §2b): which object each imported name is bound to, decided at compile time.

``validate.py`` has already refused every module outside ``ALLOWED_MODULES`` (with a hint).  What is left
is resolved here against the run's own namespace objects, when the file is compiled -- still before
anything runs -- so an import gradcli cannot honour is an ``unsupported`` error of that line and nothing
of the file has run:

* ``import torch.nn as nn`` binds the ``torch.nn`` namespace; ``import torch.nn`` binds ``torch`` (and
  checks that ``torch.nn`` exists); ``import math`` binds the run's ``math`` namespace
  (:mod:`gradcli.lang.pymath`);
* ``from torch.autograd import grad, Variable as V`` binds the named members;
* a module SPEC §2b lists that gradcli does not have (yet) and a name a module lacks are each an
  ``unsupported`` error naming it.

Resolution reads namespaces only through the attribute gate (``access.get_attr``), so an import can bind
nothing that ``torch.X`` in the file could not reach.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import GradcliError, error_class
from .access import get_attr

__all__ = ["resolve_module", "resolve_member", "ImportRefused"]


class ImportRefused(Exception):
    """An import gradcli cannot honour: ``message`` and ``hint`` of the ``unsupported`` error."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def resolve_module(path: str, roots: dict[str, Callable[[], Any]]) -> Any:
    """The namespace object of the dotted module ``path`` (``torch.nn``), or raise :class:`ImportRefused`.

    ``roots`` maps a top-level module name (``torch``, ``math``) to a function giving its namespace."""
    parts = path.split(".")
    if parts[0] not in roots:
        raise ImportRefused(f"unsupported import: {path}", "the module is not available in gradcli")
    obj = roots[parts[0]]()
    done = parts[0]
    for part in parts[1:]:
        try:
            obj = get_attr(obj, part)
        except GradcliError:
            raise ImportRefused(f"unsupported import: {path} -- gradcli does not implement {done}.{part} (yet)",
                                f"See `gradcli ops` for what gradcli's {done} offers.") from None
        done = f"{done}.{part}"
    return obj


def resolve_member(module: Any, module_path: str, name: str) -> Any:
    """``from module_path import name``: the member, or raise :class:`ImportRefused` naming it."""
    try:
        return get_attr(module, name)
    except GradcliError:
        raise ImportRefused(f"unsupported import: cannot import name '{name}' from '{module_path}' -- gradcli's "
                            f"{module_path} has no '{name}'",
                            f"See `gradcli ops` for what gradcli's {module_path} offers.") from None


def refusal(e: ImportRefused, line: Any, col: Any) -> GradcliError:
    """The ``unsupported`` error of a refused import at (line, col)."""
    err = error_class("unsupported")(e.message, e.hint, line=line, col=col)
    if line is not None:
        err.frames.append((line, col if col is not None else 0))
    return err
