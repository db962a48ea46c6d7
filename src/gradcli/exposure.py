"""Markers of the exposure protocol (docs/ARCHITECTURE.md) shared by the engine and the language.

A leaf module: it imports nothing from gradcli, so ``nn/`` (below the language) and ``lang/access.py``
(the one attribute gate) can agree on them without an upward import.

Most gradcli objects list what a file may read in a fixed ``_gradcli_public`` frozenset.  Objects whose
attributes are the file's own -- ``nn.Module`` instances (parameters, submodules, attributes a file sets
on ``self``), instances of the file's own classes -- cannot list them in advance.  Their class sets

* ``_gradcli_public = DYNAMIC``: the gate asks ``type(obj)._gradcli_getattr(obj, name)`` for each read
  (on a class object: ``cls._gradcli_class_getattr(name)``);
* ``_gradcli_settable = DYNAMIC``: the gate calls ``type(obj)._gradcli_setattr(obj, name, value)`` for
  each assignment and ``type(obj)._gradcli_delattr(obj, name)`` for each ``del obj.name``.

These hooks see only names the static check let through (no ``_`` names), refuse ``_`` names again
themselves, and raise the error PyTorch raises for a missing attribute.  ``DYNAMIC`` is an empty
frozenset, so code that only knows fixed sets finds nothing readable on such objects.

``SUBCLASSABLE``: engine classes a file may derive its own classes from (``class Net(nn.Module)``,
``class D(Dataset)``) carry ``_gradcli_subclassable = True``; the interpreter refuses any other base.
"""

from __future__ import annotations

__all__ = ["DYNAMIC", "is_subclassable", "mark_subclassable"]


class _Dynamic(frozenset):
    """The marker type of :data:`DYNAMIC` (an empty frozenset, compared by identity)."""

    def __repr__(self) -> str:
        return "DYNAMIC"


#: ``_gradcli_public`` / ``_gradcli_settable`` value meaning "ask the class, name by name"
DYNAMIC = _Dynamic()


def mark_subclassable(cls: type) -> type:
    """Let files derive classes from ``cls`` (``class Net(nn.Module)``); returns ``cls`` (a decorator)."""
    cls._gradcli_subclassable = True  # type: ignore[attr-defined]
    return cls


def is_subclassable(cls: object) -> bool:
    """May a file's class derive from ``cls``?  (An engine class marked by :func:`mark_subclassable`.)"""
    return isinstance(cls, type) and getattr(cls, "_gradcli_subclassable", False) is True
