"""The one checked gate for attribute access from user code (the exposure protocol).

User code reaches attributes only through :func:`get_attr` and
:func:`set_attr`:

* Python values (``int float bool complex str bytes list tuple dict range
  slice``) expose a short whitelist of methods and properties
  (:data:`PY_ATTRS`) -- ``str.format`` is the language's own (lang/formatting.py: plain
  fields only), no ``format_map``; methods that can build huge objects
  (``list.extend``, ``str.replace``, ``str.ljust`` ...) come wrapped with a size check;
  an exception object of the language's classes exposes ``args`` only;
* gradcli objects expose exactly the names in their ``_gradcli_public``
  (class or instance attribute, a frozenset); reading that attribute is this
  module's privilege -- user code can never name it, since ``_`` attribute
  names are refused statically.  ``_gradcli_settable`` lists what may be
  assigned; a ``"*"`` in it lets any non-``_`` name be set (the engine's
  ``ctx`` objects), which the object must then list in its ``_gradcli_public``
  to make it readable.  An optional ``_gradcli_unsupported`` names real
  PyTorch APIs gradcli lacks: reading one is an ``unsupported`` error;
* objects whose attributes are the file's own (``nn.Module`` instances, instances
  of the file's classes) set ``_gradcli_public``/``_gradcli_settable`` to
  :data:`gradcli.exposure.DYNAMIC`: their class decides name by name
  (``_gradcli_getattr`` / ``_gradcli_setattr`` / ``_gradcli_delattr``);
* anything else (user functions, numpy arrays, generators, types, ...) exposes
  nothing.

Refusals carry Python's AttributeError text ("'Tensor' object has no attribute
'foo'"), kind ``runtime`` -- as PyTorch itself would fail -- except where the
object really has the attribute but the language withholds it, or the engine
marks it as a missing PyTorch API, or PyTorch 2.13 has the name on a gradcli
module or tensor (:mod:`.apicheck`): kind ``unsupported``.  The hint of a name
PyTorch lacks too names the closest one gradcli implements.
"""

from __future__ import annotations

import collections
import inspect
from typing import Any, Callable, Optional

import builtins

from ..errors import GradcliError, error_class
from ..exposure import DYNAMIC
from .classes import file_private_get, file_private_set
from .validate import EXCEPTION_NAMES

__all__ = ["get_attr", "set_attr", "del_attr", "PY_ATTRS", "is_gradcli_object", "type_name", "set_size_checker",
           "set_key_wrappers"]

_DICT_ATTRS = frozenset({"get", "keys", "values", "items", "copy", "pop", "update", "setdefault", "popitem",
                         "clear"})
_INT_ATTRS = frozenset({"real", "imag", "conjugate", "bit_length", "numerator", "denominator", "is_integer"})

#: methods/properties of Python values that user code may use
PY_ATTRS: dict[type, frozenset] = {
    list: frozenset(
        {"append", "extend", "pop", "insert", "index", "count", "reverse", "copy", "remove", "clear", "sort"}
    ),
    dict: _DICT_ATTRS,
    collections.OrderedDict: _DICT_ATTRS | {"move_to_end"},
    set: frozenset({
        "add", "discard", "remove", "pop", "clear", "copy", "union", "intersection", "difference",
        "symmetric_difference", "issubset", "issuperset", "isdisjoint", "update", "intersection_update",
        "difference_update", "symmetric_difference_update",
    }),
    frozenset: frozenset({
        "copy", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
        "isdisjoint",
    }),
    str: frozenset(
        {
            "join", "split", "rsplit", "strip", "lstrip", "rstrip", "upper", "lower", "startswith", "endswith",
            "replace", "count", "find", "rfind", "index", "splitlines", "title", "capitalize", "isdigit",
            "isalpha", "isalnum", "isspace", "isupper", "islower", "format", "ljust", "rjust", "center", "zfill",
            "partition", "rpartition", "casefold", "swapcase", "isnumeric", "isdecimal", "isidentifier",
            "rindex",
        }
    ),
    bytes: frozenset({"decode", "count", "startswith", "endswith"}),
    tuple: frozenset({"index", "count"}),
    int: _INT_ATTRS,
    bool: _INT_ATTRS,
    float: frozenset({"real", "imag", "conjugate", "is_integer", "as_integer_ratio"}),
    complex: frozenset({"real", "imag", "conjugate"}),
    range: frozenset({"start", "stop", "step", "index", "count"}),
    slice: frozenset({"start", "stop", "step"}),
}
PY_ATTRS.update({getattr(builtins, n): frozenset({"args"}) for n in EXCEPTION_NAMES})

# size checking for the wrapped methods; the interpreter installs its budget's checker
_size_check: list[Callable[[int, str], None]] = [lambda n, what: None]
# formatting one field of str.format (width-checked); the interpreter installs its run's Operators.fmt
_field_format: list[Callable[[Any, str], str]] = [format]


def set_field_formatter(fn: Callable[[Any, str], str]) -> Callable[[Any, str], str]:
    """Install ``fn(value, spec)`` that formats one field of ``str.format``; returns the previous one."""
    old = _field_format[0]
    _field_format[0] = fn
    return old


def set_size_checker(fn: Callable[[int, str], None]) -> Callable[[int, str], None]:
    """Install ``fn(n, what)`` that raises ``limit`` for too-large results; returns the previous one."""
    old = _size_check[0]
    _size_check[0] = fn
    return old


class _Bound:
    """A size-checked bound method of a Python value (exposes nothing itself)."""

    __slots__ = ("_fn", "_obj", "_name")
    _gradcli_public: frozenset = frozenset()

    def __init__(self, fn: Callable, obj: Any, name: str) -> None:
        self._fn, self._obj, self._name = fn, obj, name

    def __call__(self, *args, **kwargs):
        return self._fn(self._obj, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<built-in method {self._name} of {type(self._obj).__name__} object>"


def _list_extend(lst: list, items) -> None:
    if not hasattr(items, "__len__"):
        items = list(items) if isinstance(items, (range,)) else items
    if hasattr(items, "__len__"):
        _size_check[0](len(lst) + len(items), "list")
    lst.extend(items)


def _str_replace(s: str, old: str, new: str, count: int = -1) -> str:
    if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        n = s.count(old) if old else len(s) + 1
        if count is not None and count >= 0:
            n = min(n, count)
        _size_check[0](len(s) + n * (len(new) - len(old)), "string")
    return s.replace(old, new, count)


def _str_join(s: str, items) -> str:
    if not isinstance(items, (list, tuple)):
        # a generator or any iterable: its items first (each ticks), then the size (issue 20:
        # ('a' * 10**7).join(gen) built 4.3 GB unchecked)
        items = list(items)
        _size_check[0](len(items), "list")
    total = len(s) * max(0, len(items) - 1)
    for x in items:
        total += len(x) if isinstance(x, str) else 0
    _size_check[0](total, "string")
    return s.join(items)


def _case(method: str) -> Callable:
    """``str.upper`` ...: a result up to 3 characters per character (``'\ufb03'.upper()`` is ``'FFI'``),
    size-checked before it is built."""
    fn = getattr(str, method)

    def case(s: str) -> str:
        _size_check[0](len(s) if s.isascii() else 3 * len(s), "string")
        return fn(s)

    return case


def _list_sort(lst: list, *, key: Any = None, reverse: bool = False) -> None:
    if isinstance(key, type):  # a raw builtin type as key: the run's checked constructor
        key = _key_wrappers[0].get(key, key)
    lst.sort(key=key, reverse=reverse)


#: the run's checked constructors by builtin type (the interpreter installs them), for ``list.sort(key=list)``
_key_wrappers: list = [{}]


def set_key_wrappers(wrappers: dict) -> dict:
    """Install the run's checked constructors (``{list: list_, ...}``); returns the previous ones."""
    old = _key_wrappers[0]
    _key_wrappers[0] = wrappers
    return old


def _str_format(s: str, *args: Any, **kwargs: Any) -> str:
    from .formatting import str_format

    return str_format(s, _field_format[0], *args, **kwargs)


def _padding(method: str) -> Callable:
    def pad(s: str, width: Any, *fill: Any) -> str:
        if type(width) is int:
            _size_check[0](width, "string")
        return getattr(str, method)(s, width, *fill)

    return pad


def _dict_fromkeys(iterable: Any, value: Any = None, /) -> dict:
    """``dict.fromkeys(iterable, value=None)`` (real scripts use it): the keys gathered by the run's checked
    ``list`` constructor first, so the dict's size and its C loop are bounded like ``list(iterable)``."""
    keys = _key_wrappers[0].get(list, list)(iterable)
    return dict.fromkeys(keys, value)


_dict_fromkeys.__name__ = _dict_fromkeys.__qualname__ = "fromkeys"

#: attributes of the built-in type objects a file may read (``dict.fromkeys``), as their checked forms
_TYPE_ATTRS: dict[tuple[type, str], Callable] = {(dict, "fromkeys"): _dict_fromkeys}

_WRAPPED: dict[tuple[type, str], Callable] = {
    (list, "extend"): _list_extend,
    (str, "replace"): _str_replace,
    (str, "join"): _str_join,
    (str, "format"): _str_format,
    (str, "ljust"): _padding("ljust"),
    (str, "rjust"): _padding("rjust"),
    (str, "center"): _padding("center"),
    (str, "zfill"): _padding("zfill"),
    (list, "sort"): _list_sort,
    **{(str, m): _case(m) for m in ("upper", "lower", "title", "capitalize", "swapcase", "casefold")},
}


def type_name(obj: Any) -> str:
    """The type name Python's messages use ('Tensor', 'int', 'function', ...)."""
    name = getattr(type(obj), "_gradcli_type_name", None)
    if isinstance(name, str):
        return name
    return type(obj).__name__


def is_gradcli_object(obj: Any) -> bool:
    """Does ``obj`` follow the exposure protocol (has a ``_gradcli_public`` set)?"""
    try:
        pub = obj._gradcli_public
    except Exception:
        return False
    return isinstance(pub, (frozenset, set))


def _module_name(obj: Any) -> Optional[str]:
    """The dotted name of an engine namespace object (``torch.autograd`` ...), else None."""
    if type(obj).__name__ != "Namespace":
        return None
    try:
        name = object.__getattribute__(obj, "_name")
    except AttributeError:
        return None
    return name if isinstance(name, str) else None


def _no_attr(obj: Any, name: str) -> GradcliError:
    if isinstance(obj, type):
        msg = f"type object '{obj.__name__}' has no attribute '{name}'"
    else:
        module = _module_name(obj)
        if module is not None:
            msg = f"module '{module}' has no attribute '{name}'"
        else:
            msg = f"'{type_name(obj)}' object has no attribute '{name}'"
    return error_class("runtime")(msg, torch_type=AttributeError)


def _withheld(obj: Any, name: str) -> GradcliError:
    return error_class("unsupported")(
        f"'{type_name(obj)}.{name}' is outside the gradcli language",
        "gradcli exposes only the attributes listed by `gradcli ops`.",
    )


def get_attr(obj: Any, name: str) -> Any:
    """``obj.name`` for user code, through the whitelist; raises a GradcliError otherwise."""
    if obj is dict and name == "fromkeys":
        return _TYPE_ATTRS[(dict, name)]
    allowed = PY_ATTRS.get(type(obj))
    if allowed is not None:
        # a Python value (exact type: none has _gradcli_public), looked up first because the failed
        # attribute lookup below costs an exception (issue 9: lst.append in a loop)
        if name in allowed:
            wrapped = _WRAPPED.get((type(obj), name))
            if wrapped is not None:
                return _Bound(wrapped, obj, name)
            try:
                return getattr(obj, name)
            except AttributeError:
                raise _no_attr(obj, name) from None
        if hasattr(type(obj), name):
            raise _withheld(obj, name)
        raise _no_attr(obj, name)
    try:
        pub = obj._gradcli_public
    except AttributeError:
        pub = None
    except Exception:  # a gradcli object whose attribute lookup itself failed: treat as opaque
        pub = None
    if type(pub) is frozenset or isinstance(pub, (frozenset, set)):
        if name in pub:
            if name in _SHADOWED and not isinstance(obj, type):  # a tensor's own attribute hiding a method
                user = _user_attrs(obj)
                if user is not None and name in user:
                    return user[name]
            return getattr(obj, name)
        if pub is DYNAMIC:
            return _dynamic_get(obj, name)
        if name[:1] == "_":
            # the `_` attributes PyTorch documents (the validator lets only those through: _version, _base,
            # _is_view, _saved_*, _raw_saved_*), answered by the object itself
            private = getattr(type(obj), "_gradcli_private", None)
            if private is not None:
                return private(obj, name)
        if getattr(type(obj), "_gradcli_user_attrs", False):
            user = _user_attrs(obj)
            if user is not None and name in user:
                return user[name]
        missing = getattr(obj, "_gradcli_unsupported", None)
        if isinstance(missing, (frozenset, set)) and name in missing:
            raise error_class("unsupported")(
                f"'{type_name(obj)}.{name}' exists in PyTorch but gradcli does not implement it (yet)",
                "See `gradcli ops` for what is supported.",
            )
        from .apicheck import attribute_error  # PyTorch API gradcli lacks, or a typo's closest name

        raise attribute_error(obj, name, _no_attr(obj, name))
    raise _no_attr(obj, name)


#: method names some tensor holds an attribute of its own under (read from the tensor first)
_SHADOWED: set = set()


def _user_attrs(obj: Any) -> Optional[dict]:
    """The attributes a file set on a tensor (``Tensor._gradcli_user_attrs``), or None before the first."""
    try:
        user = obj._user
    except AttributeError:
        return None
    return user if type(user) is dict else None  # (on the class itself: the slot's descriptor)


def _dynamic_get(obj: Any, name: str) -> Any:
    """A read on an object whose class decides (:data:`DYNAMIC`); ``_`` names never get through (but the
    ``__`` names a class lists in ``_gradcli_dunders``: ``super().__init__``)."""
    if name.startswith("_") and name not in getattr(type(obj), "_gradcli_dunders", ()):
        return file_private_get(obj, name)  # the file's own `_` names (self._helper); nothing else
    if isinstance(obj, type):
        return obj._gradcli_class_getattr(name)
    return type(obj)._gradcli_getattr(obj, name)


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` for user code: only names in the object's ``_gradcli_settable``."""
    try:
        settable = obj._gradcli_settable
    except Exception:
        settable = None
    if name[:1] == "_" and not (settable is DYNAMIC and not isinstance(obj, type)):
        # the file's own `_` names live only on its own classes' objects (a tensor's or ctx's stay refused)
        raise error_class("unsupported")(f"unsupported attribute: {name} (a file gives `_` names only to "
                                         "objects of its own classes)")
    if settable is DYNAMIC and not isinstance(obj, type):
        if name.startswith("_"):
            file_private_set(obj, name, value)
            return
        type(obj)._gradcli_setattr(obj, name, value)
        return
    if isinstance(settable, (frozenset, set)) and (name in settable or ("*" in settable and not name.startswith("_"))):
        setattr(obj, name, value)
        return
    if is_gradcli_object(obj) and name in obj._gradcli_public:
        if getattr(type(obj), "_gradcli_user_attrs", False) and inspect.isfunction(
                inspect.getattr_static(type(obj), name, None)):
            # PyTorch's Tensor keeps the value in the instance's __dict__, which hides the method
            # (``w.retain_grad = True`` then reads True); properties stay not writable
            user = _user_attrs(obj)
            if user is None:
                user = obj._user = {}
            user[name] = value
            _SHADOWED.add(name)
            return
        if getattr(type(obj), "_gradcli_user_attrs", False):  # a Tensor: its C type's getset descriptors
            raise error_class("runtime")(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable",
                                         torch_type=AttributeError)
        raise error_class("runtime")(f"attribute '{name}' of '{type_name(obj)}' object is not writable",
                                     torch_type=AttributeError)
    if getattr(type(obj), "_gradcli_user_attrs", False) and not name.startswith("_"):
        user = _user_attrs(obj)
        if user is None:
            user = obj._user = {}
        user[name] = value
        return
    if type(obj) in PY_ATTRS and name in PY_ATTRS[type(obj)]:
        raise error_class("runtime")(f"'{type_name(obj)}' object attribute '{name}' is read-only",
                                     torch_type=AttributeError)
    raise error_class("runtime")(f"'{type_name(obj)}' object has no attribute '{name}'", torch_type=AttributeError)


def del_attr(obj: Any, name: str) -> None:
    """``del obj.name`` for user code: objects whose class decides (:data:`DYNAMIC`), and a Tensor's
    ``grad`` (PyTorch's deleter sets it to None); anything else fails as Python fails."""
    try:
        settable = obj._gradcli_settable
    except Exception:
        settable = None
    if name.startswith("_"):
        raise error_class("unsupported")(f"unsupported attribute: {name}")
    if settable is DYNAMIC and not isinstance(obj, type):
        type(obj)._gradcli_delattr(obj, name)
        return
    deleter = getattr(type(obj), "_gradcli_delattr_names", None)
    if isinstance(deleter, frozenset) and name in deleter:
        delattr(obj, name)
        return
    if getattr(type(obj), "_gradcli_user_attrs", False):
        user = _user_attrs(obj)
        if user is not None and name in user:
            del user[name]
            return
    # an attribute the file itself set on an object that takes any name (a custom Function's ctx:
    # ``del ctx.result`` in the forward-AD tutorial's jvp); the object's own API stays undeletable
    if (isinstance(settable, (frozenset, set)) and "*" in settable and not isinstance(obj, type)
            and name in getattr(obj, "__dict__", {})):
        delattr(obj, name)
        return
    if is_gradcli_object(obj) and name in obj._gradcli_public:
        raise error_class("runtime")(f"attribute '{name}' of '{type_name(obj)}' object is not writable")
    if type(obj) in PY_ATTRS and name in PY_ATTRS[type(obj)]:
        raise error_class("runtime")(f"'{type_name(obj)}' object attribute '{name}' is read-only")
    raise error_class("runtime")(f"'{type_name(obj)}' object has no attribute '{name}'")


def public_names(obj: Any) -> Optional[frozenset]:
    """The names user code may read on ``obj`` (for completion/docs), or None for opaque objects."""
    if is_gradcli_object(obj):
        return frozenset(obj._gradcli_public)
    return PY_ATTRS.get(type(obj))
