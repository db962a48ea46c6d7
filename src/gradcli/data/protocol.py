"""How torch.utils.data talks to a dataset object: the few operations PyTorch's DataLoader uses.

A dataset is any object that supports them -- a :class:`~gradcli.data.dataset.TensorDataset`, a list, or a
file's own ``class D(Dataset)`` built by the interpreter (the language's user classes, issue 17): map-style
datasets answer ``len(ds)`` and ``ds[i]``, iterable ones (subclasses of ``IterableDataset``) ``iter(ds)``.
Python's own ``len``/``[]``/``iter`` do the dispatch, so an object whose type defines ``__len__``,
``__getitem__`` or ``__iter__`` (by a Python class, or by the interpreter's classes for a file's methods)
plugs in unchanged; an error inside a file's ``__getitem__`` keeps its own kind and line.

What PyTorch raises when an operation is missing is raised here too, verbatim ("object of type 'D' has no
len()"), with its kind.  :func:`register_base_resolver` lets the language layer say which engine base
classes (``Dataset``, ``IterableDataset``) an instance of a file's class derives from, for an instance that
is not a Python subclass of them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from ..errors import ArgumentIndexError, ArgumentTypeError, GradcliError

__all__ = ["length", "item", "iterate", "is_iterable_dataset", "is_dataset", "register_base_resolver", "type_name"]

#: fn(obj) -> tuple of engine classes obj's class derives from, or None when it does not know obj
_resolvers: list[Callable[[Any], Optional[tuple]]] = []


def register_base_resolver(fn: Callable[[Any], Optional[tuple]]) -> None:
    """Install ``fn(obj)``: the engine base classes of an object that is not a Python instance of them (a file's
    class instance), or None.  Used by :func:`is_iterable_dataset` and :func:`is_dataset`."""
    if fn not in _resolvers:
        _resolvers.append(fn)


def type_name(obj: Any) -> str:
    """The class name Python's messages give ``obj`` (an engine class may name itself)."""
    name = getattr(type(obj), "_gradcli_type_name", None)
    return name if isinstance(name, str) else type(obj).__name__


def _bases(obj: Any) -> tuple:
    for fn in _resolvers:
        got = fn(obj)
        if got is not None:
            return tuple(got)
    return ()


def _derives(obj: Any, cls: type) -> bool:
    return isinstance(obj, cls) or any(isinstance(b, type) and issubclass(b, cls) for b in _bases(obj))


def is_iterable_dataset(obj: Any) -> bool:
    """Is ``obj`` an ``IterableDataset`` (PyTorch's ``isinstance(dataset, IterableDataset)``)?"""
    from .dataset import IterableDataset

    return _derives(obj, IterableDataset)


def is_dataset(obj: Any) -> bool:
    """Is ``obj`` a ``Dataset`` (a subclass instance, as ``isinstance(obj, Dataset)``)?"""
    from .dataset import Dataset

    return _derives(obj, Dataset)


def length(ds: Any) -> int:
    """``len(ds)``; Python's TypeError ("object of type 'D' has no len()") as kind ``type``."""
    try:
        return len(ds)
    except (GradcliError, ArgumentTypeError):
        raise
    except TypeError as e:
        raise ArgumentTypeError(str(e).replace(f"'{type(ds).__name__}'", f"'{type_name(ds)}'")) from None


def item(ds: Any, index: Any) -> Any:
    """``ds[index]``; Python's TypeError/IndexError (a dataset that cannot be indexed, an index past the end
    of a list) as the kinds ``type``/``index``."""
    try:
        return ds[index]
    except (GradcliError, ArgumentIndexError, ArgumentTypeError):
        raise
    except IndexError as e:
        raise ArgumentIndexError(str(e)) from None
    except TypeError as e:
        raise ArgumentTypeError(str(e).replace(f"'{type(ds).__name__}'", f"'{type_name(ds)}'")) from None


def iterate(ds: Any) -> Iterator:
    """``iter(ds)``; Python's TypeError ("'D' object is not iterable") as kind ``type``."""
    try:
        return iter(ds)
    except (GradcliError, ArgumentTypeError):
        raise
    except TypeError as e:
        raise ArgumentTypeError(str(e).replace(f"'{type(ds).__name__}'", f"'{type_name(ds)}'")) from None
