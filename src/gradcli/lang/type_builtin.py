"""The builtin ``type(obj)`` of the language (SPEC §2b: what PyTorch code does with it).

Real code uses ``type(x)`` to compare classes -- ``if type(m) == nn.Linear:`` in the function given to
``model.apply`` (torch.nn.Module.apply's docstring), ``type(x) is torch.Tensor`` -- and to print them.
Python's ``type`` is also a way out of any sandbox: the class of a function, a generator or an engine
internal reaches constructors and attributes no file may name.  So ``type(obj)`` here returns the class
only when the file could already name that very object:

* a built-in type of the language (``int float bool str list tuple dict set frozenset range``: the
  names ``isinstance`` takes) or one of its exception classes (``RuntimeError`` ..., the class of a caught
  error);
* a class made by the file's own ``class`` statement;
* a class reachable through the run's ``torch`` namespaces (``torch.Tensor``, ``nn.Linear``,
  ``nn.Parameter``, ``torch.optim.SGD``, ``torch.Size``, ``torch.dtype`` ...).

The class is then the same object as the name: every read, call and comparison on it goes through the
attribute gate exactly as on that name, so ``type`` gives nothing the name does not.  Any other object
(a function, a generator, a grad_fn node, a hook handle, None ...) is an ``unsupported`` error, and so is
the three-argument form, which creates a class.
"""

from __future__ import annotations

import builtins
import importlib
import sys
from typing import Any, Callable

from ..errors import error_class
from .validate import EXCEPTION_NAMES

__all__ = ["LANGUAGE_TYPES", "make_type", "namespace_classes"]

#: the built-in types a file names directly (safe_builtins provides each under its own name), with the exception
#: classes of SPEC §2b: ``except RuntimeError as e: print(type(e), e)`` is how real code shows a caught error
LANGUAGE_TYPES = frozenset({int, float, bool, str, list, tuple, dict, set, frozenset, range}
                           | {getattr(builtins, n) for n in EXCEPTION_NAMES})


def _member(ns: Any, name: str) -> Any:
    """A namespace member without importing anything: a lazy member not made yet is looked up in its
    module only when that module is loaded already (an object of one of its classes exists only then)."""
    d = ns.__dict__
    if name in d:
        return d[name]
    spec = (d.get("_lazy") or {}).get(name)
    if not isinstance(spec, tuple):
        return None  # a maker function: not called here
    module, attr = spec
    mod = sys.modules.get(f"gradcli.{module}" if "." in module else f"gradcli.autograd.{module}")
    return getattr(mod, attr, None) if mod is not None else None


def namespace_classes(root: Any) -> set:
    """Every class a file can reach by attribute reads on the namespace ``root`` (``torch``)."""
    from ..api import Namespace

    found: set = set()
    seen: set = set()
    stack = [root]
    while stack:
        ns = stack.pop()
        if id(ns) in seen:
            continue
        seen.add(id(ns))
        for name in ns._gradcli_public:
            value = _member(ns, name)
            if isinstance(value, Namespace):
                stack.append(value)
            elif isinstance(value, builtins.type):
                found.add(value)
    return found


def make_type(namespaces: Callable[[], list], is_user_class: Callable[[Any], bool]) -> Callable:
    """The run's ``type``: ``namespaces()`` gives its namespace roots (the run's ``torch``)."""
    known: set = set()

    def nameable(cls: Any) -> bool:
        if cls in LANGUAGE_TYPES or cls in known or is_user_class(cls):
            return True
        for root in namespaces():  # a class first seen: the lazy members made since may include it
            known.update(namespace_classes(root))
        return cls in known

    def type_(*args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) not in (1, 3):
            raise TypeError("type() takes 1 or 3 arguments")
        if len(args) == 3:
            raise error_class("unsupported")(
                "type(name, bases, dict) creates a class: outside the language (use a class statement)")
        cls = builtins.type(args[0])
        if not nameable(cls):
            raise error_class("unsupported")(
                f"type() of a '{cls.__name__}' object is outside the language: gradcli gives type(x) only "
                "for the classes a file can name (int, float, bool, str, list, tuple, dict, set, frozenset, "
                "range, its own classes, and the torch classes such as torch.Tensor or nn.Linear)")
        return cls

    type_.__name__ = type_.__qualname__ = "type"
    return type_
