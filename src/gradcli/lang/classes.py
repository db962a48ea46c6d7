"""The file's own classes (SPEC §2b): ``class Net(nn.Module)``, ``class D(Dataset)``, ``class EMA:``.

A class statement builds a real Python class with :func:`make_user_class`, so ``Net()`` runs Python's
instance creation, ``isinstance(m, Net)``/``isinstance(m, nn.Module)`` work, and engine code (a DataLoader,
``Module.__call__``) calls the file's methods by plain Python attribute lookup:

* a method becomes a :class:`UserMethod` descriptor: read on an instance it is a :class:`BoundMethod`
  (``self`` bound), on the class the :class:`~gradcli.lang.functions.UserFunction` itself;
  ``@staticmethod``/``@classmethod``/``@property`` work as in Python; other decorators are applied to the
  function first (``@torch.no_grad()``) and the result is bound like a Python function;
* a ``__dunder__`` method (only the names of ``validate.USER_DUNDERS``) becomes a Python function calling
  the file's function, so ``len(ds)``, ``ds[i]``, ``for x in obj``, ``obj(x)``, ``print(obj)`` reach it;
* the class's base is a class a file may derive from (``exposure.is_subclassable``: ``nn.Module`` and the
  other engine classes marked so, and the file's own classes), or none (``class EMA:`` / ``(object)``):
  then :class:`UserObject`.

Exposure (docs/ARCHITECTURE.md): instances and classes set ``_gradcli_public``/``_gradcli_settable`` to
``exposure.DYNAMIC``: a file reads and assigns any non-``_`` attribute, found as Python finds it (instance
attributes, the file's methods, then the base's -- an engine base's non-``_`` attributes are all PyTorch
API).  ``__`` names never get through (refused statically, and again by the gate), so ``self.__dict__``,
``self.__class__``, ``type(self)`` (no such builtin) stay out of reach; a single-``_`` name gets through
only when it is the file's own (:func:`file_private_get`: ``self._layer2_fn``), so an engine's internals
(``self._modules``) stay out of reach too.  A
``BoundMethod`` exposes nothing; calling it calls the file's function with ``self`` first.

``super()`` in a method is :class:`SuperProxy` of the class the method was defined in and its first
argument (the interpreter compiles the zero-argument form); ``super(Cls, obj)`` is :func:`make_super`.
It exposes ``__init__`` and the non-``_`` attributes that Python's ``super`` finds.
"""

from __future__ import annotations

from typing import Any, Optional

from ..errors import error_class
from ..exposure import DYNAMIC, is_subclassable, mark_subclassable
from .functions import UserFunction

__all__ = ["UserObject", "UserMethod", "BoundMethod", "SuperProxy", "make_user_class", "make_super",
           "is_user_class", "zero_arg_super", "is_file_private", "file_private_get", "file_private_set"]


def _runtime(message: str) -> Exception:
    return error_class("runtime")(message)


class BoundMethod:
    """A file's method bound to an instance (``obj.method``): calling it calls the function with ``obj`` first."""

    __slots__ = ("_fn", "_self")
    _gradcli_public: frozenset = frozenset()
    _gradcli_type_name = "method"

    def __init__(self, fn: Any, obj: Any) -> None:
        self._fn = fn
        self._self = obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(self._self, *args, **kwargs)

    @property
    def __name__(self) -> str:  # for engine messages and functools.wraps
        return getattr(self._fn, "__name__", "method")

    def __eq__(self, other: object) -> bool:
        return type(other) is BoundMethod and other._fn is self._fn and other._self is self._self

    def __hash__(self) -> int:
        return hash((id(self._fn), id(self._self)))

    def __repr__(self) -> str:
        cls = type(self._self)
        return f"<bound method {cls.__qualname__}.{self.__name__} of {_short_repr(self._self)}>"


def _short_repr(obj: Any) -> str:
    try:
        text = repr(obj)
    except Exception:  # noqa: BLE001 - a broken __repr__ of the file's class
        text = f"<{type(obj).__name__} object>"
    return text


class UserMethod:
    """The descriptor of a file's method in its class: bound on instances, the function on the class."""

    __slots__ = ("fn",)

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def __get__(self, obj: Any, cls: Optional[type] = None) -> Any:
        if obj is None:
            return self.fn
        return BoundMethod(self.fn, obj)


class _ClassMethod:
    __slots__ = ("fn",)

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def __get__(self, obj: Any, cls: Optional[type] = None) -> Any:
        return BoundMethod(self.fn, cls if cls is not None else type(obj))


def _dunder(name: str, fn: Any) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def _attribute_error(e: AttributeError) -> Exception:
    err = error_class("runtime")(str(e))
    err.__cause__ = e
    return err


@mark_subclassable
class UserObject:
    """The base of a file's class that derives from no engine class (``class EMA:``)."""

    _gradcli_public = DYNAMIC
    _gradcli_settable = DYNAMIC

    def _gradcli_getattr(self, name: str) -> Any:
        try:
            return getattr(self, name)
        except AttributeError as e:
            if isinstance(e, error_class("runtime")):
                raise
            raise _attribute_error(e) from None

    @classmethod
    def _gradcli_class_getattr(cls, name: str) -> Any:
        try:
            return getattr(cls, name)
        except AttributeError as e:
            raise _attribute_error(e) from None

    def _gradcli_setattr(self, name: str, value: Any) -> None:
        try:
            setattr(self, name, value)
        except AttributeError as e:
            raise _attribute_error(e) from None

    def _gradcli_delattr(self, name: str) -> None:
        try:
            delattr(self, name)
        except AttributeError as e:
            raise _attribute_error(e) from None


#: the instance attribute holding the ``_`` names a file set on its own objects (name -> the value set)
FILE_RECORD = "_gradcli_file_attrs"


def is_file_private(name: str) -> bool:
    """Is ``name`` a single-underscore name a file may give its own attributes (``self._layer2_fn``)?
    ``__`` names and the exposure protocol's ``_gradcli*`` names never are."""
    return name[:1] == "_" and name[:2] != "__" and not name.startswith("_gradcli")


def _engine_defines(cls: type, name: str) -> bool:
    return any(name in c.__dict__ for c in cls.__mro__ if not is_user_class(c))


def _file_defines(cls: type, name: str) -> bool:
    return any(name in c.__dict__ for c in cls.__mro__ if is_user_class(c))


def _file_registered(obj: Any, name: str) -> bool:
    """A parameter, buffer or submodule of the file's own module registered under ``name``: the file chose
    the name (``self._w = nn.Parameter(...)``, ``register_buffer("_mask", m)``)."""
    d = obj.__dict__
    return any(name in (d.get(k) or ()) for k in ("_parameters", "_buffers", "_modules"))


def _no_private(obj: Any, name: str) -> Exception:
    if isinstance(obj, type):
        msg = f"type object '{obj.__name__}' has no attribute '{name}'"
    else:
        msg = f"'{type(obj).__name__}' object has no attribute '{name}'"
    return error_class("runtime")(msg, torch_type=AttributeError)


def file_private_get(obj: Any, name: str) -> Any:
    """``obj._name`` for a file's own ``_`` attribute (SPEC §2b: real modules name helpers ``_layer2_fn``).

    Readable: a method or class attribute of the file's class (not one an engine base also defines), an
    attribute the file set (and the object still holds that very value), a parameter/buffer/submodule the
    file registered under the name.  Anything else, above all the engine's own ``_`` attributes
    (``_modules``, ``_parameters``, hooks), is "no attribute", as if it did not exist.

    Raises: GradcliError ``runtime`` (torch_type AttributeError) for a name that is not the file's.
    """
    cls = obj if isinstance(obj, type) else type(obj)
    if not is_file_private(name) or not is_user_class(cls) or _engine_defines(cls, name):
        raise _no_private(obj, name)
    if isinstance(obj, type):
        if _file_defines(cls, name):
            return cls._gradcli_class_getattr(name)
        raise _no_private(obj, name)
    d = getattr(obj, "__dict__", None)
    if d is None:
        raise _no_private(obj, name)
    record = d.get(FILE_RECORD)
    if record is not None and name in record:
        value = cls._gradcli_getattr(obj, name)
        if value is record[name]:
            return value
        raise _no_private(obj, name)  # the engine replaced it: its value, not the file's
    if name not in d and (_file_defines(cls, name) or _file_registered(obj, name)):
        return cls._gradcli_getattr(obj, name)
    raise _no_private(obj, name)


def file_private_set(obj: Any, name: str, value: Any) -> None:
    """``obj._name = value`` on an instance of the file's own class, for a name the engine does not use
    on it (then Python's, or ``nn.Module.__setattr__``'s, assignment: a Parameter still registers).

    Raises: GradcliError ``unsupported`` for a name of the engine's (``self._modules = ...``) or an
    object that is not the file's.
    """
    cls = type(obj)
    d = getattr(obj, "__dict__", None)
    if (isinstance(obj, type) or d is None or not is_file_private(name) or not is_user_class(cls)
            or _engine_defines(cls, name)):
        raise error_class("unsupported")(f"unsupported attribute: {name}")
    record = d.get(FILE_RECORD)
    if (record is None or name not in record) and name in d:
        raise error_class("unsupported")(f"unsupported attribute: {name} (gradcli's own attribute of "
                                         f"'{cls.__name__}')")
    cls._gradcli_setattr(obj, name, value)
    if record is None:
        record = {}
        object.__setattr__(obj, FILE_RECORD, record)
    record[name] = value


def is_user_class(cls: Any) -> bool:
    """Was ``cls`` made by a class statement of the file?"""
    return isinstance(cls, type) and cls.__dict__.get("_gradcli_user_class", False) is True


def find_defining_class(obj: Any, token: object) -> Optional[type]:
    """The class made by the class statement ``token`` in ``obj``'s MRO (``super()``'s ``__class__``)."""
    cls = obj if isinstance(obj, type) else type(obj)
    for c in cls.__mro__:
        if c.__dict__.get("_gradcli_stmt") is token:
            return c
    return None


def zero_arg_super(token: object, obj: Any) -> "SuperProxy":
    """``super()`` in a method of the class statement ``token``, whose first argument is ``obj``."""
    cls = find_defining_class(obj, token)
    if cls is None:
        raise TypeError("super(type, obj): obj must be an instance or subtype of type")
    return SuperProxy(cls, obj)


def make_user_class(name: str, base: Any, methods: list, attrs: dict, token: object = None) -> type:
    """``class name(base): ...`` of the file.

    base: the evaluated base class, or None (no base / ``object``).
    methods: ``(name, function, kind)`` with kind ``"method"``, ``"static"``, ``"class"``, ``"property"``
        or ``"value"`` (a decorated function: whatever the decorators returned, bound like a function if it
        is a Python function).
    attrs: class attributes (``NAME = value`` in the body), in order.
    Raises an ``unsupported`` error for a base a file may not derive from.
    """
    if base is None:
        bases: tuple = (UserObject,)
    elif is_subclassable(base):
        bases = (base,)
        if getattr(base, "_gradcli_public", None) is not DYNAMIC:
            bases = (base, UserObject)  # an engine base with fixed names (a Dataset): the file's attributes too
    else:
        shown = getattr(base, "__name__", None) or type(base).__name__
        raise error_class("unsupported")(
            f"unsupported class: {name} cannot derive from {shown}",
            "A class derives from nn.Module (or Sequential, ModuleList), torch.utils.data.Dataset / "
            "IterableDataset, torch.autograd.Function, one of the file's own classes, or nothing.")
    for k in list(attrs) + [m[0] for m in methods]:
        if k.startswith("_gradcli"):  # the exposure protocol's names stay gradcli's (also refused statically)
            raise error_class("unsupported")(f"unsupported class attribute: {k}")
    ns: dict = {}
    for k, v in attrs.items():
        ns[k] = v
    for mname, fn, kind in methods:
        if mname.startswith("__"):
            ns[mname] = _dunder(mname, fn)
        elif kind == "static":
            ns[mname] = staticmethod(fn)
        elif kind == "class":
            ns[mname] = _ClassMethod(fn)
        elif kind == "property":
            ns[mname] = property(_dunder(mname, fn))
        elif kind == "value" and type(fn) is not UserFunction:
            ns[mname] = fn  # a decorated function (a Python function binds as a method, as in Python)
        else:
            ns[mname] = UserMethod(fn)
    ns.update({"__module__": "__main__", "__qualname__": name, "_gradcli_user_class": True,
               "_gradcli_public": DYNAMIC, "_gradcli_settable": DYNAMIC, "_gradcli_stmt": token})
    try:
        return type(name, bases, ns)
    except TypeError as e:  # pragma: no cover - layout conflicts of engine bases
        raise error_class("type")(str(e)) from None


class SuperProxy:
    """``super()`` / ``super(Cls, obj)`` in a method: ``__init__`` and the base's non-``_`` attributes."""

    __slots__ = ("_super", "_cls", "_obj")
    _gradcli_public = DYNAMIC
    _gradcli_dunders = frozenset({"__init__"})  # the one ``__`` name the gate lets through (super().__init__)
    _gradcli_type_name = "super"

    def __init__(self, cls: type, obj: Any) -> None:
        self._cls = cls
        self._obj = obj
        self._super = super(cls, obj)

    def _gradcli_getattr(self, name: str) -> Any:
        if name.startswith("_") and name != "__init__":  # pragma: no cover - refused statically and by the gate
            raise _runtime(f"'super' object has no attribute '{name}'")
        try:
            return getattr(self._super, name)
        except AttributeError:
            raise _runtime(f"'super' object has no attribute '{name}'") from None

    def __repr__(self) -> str:
        return f"<super: <class '{self._cls.__name__}'>, <{type(self._obj).__name__} object>>"


class UnboundSuper:
    """``super(Cls)`` (one argument: an unbound super object).  Real code calls ``super(Cls).__init__()``
    (PyTorch's IterableDataset docstring): in a method, Python's zero-argument ``super.__init__`` then
    re-binds the super object to the method's class and first argument, which changes nothing -- so
    ``__init__`` is a no-op here; nothing else is readable (Python: no base attribute without an object)."""

    __slots__ = ("_cls",)
    _gradcli_public = DYNAMIC
    _gradcli_dunders = frozenset({"__init__"})
    _gradcli_type_name = "super"

    def __init__(self, cls: type) -> None:
        self._cls = cls

    def _gradcli_getattr(self, name: str) -> Any:
        if name == "__init__":
            return _unbound_super_init
        raise _runtime(f"'super' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"<super: <class '{self._cls.__name__}'>, NULL>"


def _unbound_super_init() -> None:
    return None


_unbound_super_init.__name__ = _unbound_super_init.__qualname__ = "__init__"


def make_super(cls: Any = None, obj: Any = None, *rest: Any) -> "SuperProxy | UnboundSuper":
    """The ``super`` builtin of the language (the two-argument form; the interpreter compiles ``super()``)."""
    if rest:
        raise TypeError(f"super() takes at most 2 arguments ({2 + len(rest)} given)")
    if cls is None:
        raise error_class("runtime")("super(): no arguments")
    if not isinstance(cls, type):
        raise TypeError(f"super() argument 1 must be a type, not {type(cls).__name__}")
    if obj is None:
        return UnboundSuper(cls)
    if not (isinstance(obj, cls) or (isinstance(obj, type) and issubclass(obj, cls))):
        raise TypeError("super(type, obj): obj must be an instance or subtype of type")
    return SuperProxy(cls, obj)
