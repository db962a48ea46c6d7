"""Exceptions in the language (SPEC §2b): the classes a file names, what ``except`` binds, what ``raise`` raises.

The model
---------
Inside gradcli every error is a :class:`~gradcli.errors.GradcliError` with a SPEC §4 kind.  A file
that catches one sees what PyTorch would have raised there: an instance of the error's
``torch_type`` (``RuntimeError``, ``TypeError`` ...) whose ``args`` are ``(torch_message,)`` --
PyTorch 2.13's own text (errors.TORCH_MESSAGES) -- so ``print(e)``, ``str(e)``, ``e.args`` and
``isinstance(e, RuntimeError)`` give what they give in PyTorch.  That object is made fresh by
:func:`visible`, from the real Python class, and remembers the error it stands for, so ``raise e``
re-raises the same error (kind and line kept, as a re-raise keeps Python's traceback).  ``raise``
of an exception the file built (``raise ValueError("bad")``) becomes a GradcliError of the kind
its class maps to (:func:`kind_of`: type/index/name/assertion, else runtime) that hands the
file's own object back to a handler.

What cannot be caught: errors PyTorch never raises (``limit``, ``unsupported``, ``syntax``:
``torch_type`` None) and internal errors of gradcli (any exception that is not a GradcliError
after :func:`gradcli.lang.errmap.convert`); they end the run and skip ``finally`` bodies (the run
stops at the error, whose state the result shows).

Safety: the names a file sees are the real built-in classes of :data:`CLASSES`; an exception
object exposes only ``args`` (:mod:`.access`), never ``__traceback__``/``__context__`` (dunder
names are refused statically) nor ``with_traceback``; the objects made here are built from
strings and the file's own values, never from engine internals.

Compiled forms of ``try`` and ``raise`` (:func:`compile_try`, :func:`compile_raise`) are called
by :class:`gradcli.lang.interpreter.Compiler`; control flow uses the interpreter's signals
(``None``, BREAK, CONTINUE, ``(value,)``), so ``finally`` sees a ``return`` as a value.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any, Callable, Optional

from ..errors import GradcliError, error_class
from . import errmap
from .functions import UNBOUND
from .position import position
from .validate import EXCEPTION_NAMES

__all__ = [
    "CLASSES",
    "catchable",
    "visible",
    "kind_of",
    "from_raised",
    "compile_try",
    "compile_raise",
]

#: the exception classes a file can name (builtins of the language), as PyTorch code catches them
CLASSES: dict[str, type] = {name: getattr(builtins, name) for name in EXCEPTION_NAMES}

#: class -> the kind an uncaught ``raise`` of it ends the run with (SPEC §2b); others: runtime
_KINDS = ((AssertionError, "assertion"), (NameError, "name"), (TypeError, "type"), (IndexError, "index"))

# the attribute of an exception object made by visible(): the GradcliError it stands for
_ORIGIN = "_gradcli_origin"


def kind_of(cls: type) -> str:
    """The SPEC §4 kind of an exception of class ``cls`` raised by the file."""
    for base, kind in _KINDS:
        if issubclass(cls, base):
            return kind
    return "runtime"


def catchable(exc: BaseException) -> Optional[GradcliError]:
    """The GradcliError a handler may catch for ``exc``, or None (a limit, an unsupported construct,
    an internal error of gradcli, a BaseException of the engine's own)."""
    if not isinstance(exc, Exception):
        return None
    err = exc if isinstance(exc, GradcliError) else errmap.convert(exc)
    if not isinstance(err, GradcliError) or err.torch_type is None:
        return None
    return err


def visible(err: GradcliError) -> BaseException:
    """The exception object a file's handler binds for ``err`` (see the module docstring)."""
    own = getattr(err, "user_object", None)
    if own is not None:
        return own
    cls = err.torch_type if isinstance(err.torch_type, type) else RuntimeError
    args = err.torch_args if err.torch_args is not None else (err.torch_message,)
    try:
        obj = cls(*args)
    except Exception:  # a class whose constructor wants other arguments: the message alone
        obj = cls(err.torch_message)
    obj.__dict__[_ORIGIN] = err  # no reference back from err: no cycle (the collector pauses during a run)
    return obj


def _message(obj: BaseException, kind: str) -> str:
    text = str(obj)
    if kind in ("type", "index", "name", "assertion"):
        return text or type(obj).__name__
    if isinstance(obj, KeyError):
        return f"KeyError: {text}"
    return f"{type(obj).__name__}: {text}" if text else type(obj).__name__


def from_raised(value: Any, check_text: Callable[[Any], None]) -> GradcliError:
    """The GradcliError that ``raise value`` raises (value: an exception object or class).

    Raises a GradcliError of kind ``type`` when ``value`` is no exception, as Python does."""
    if isinstance(value, type) and issubclass(value, BaseException):
        value = value()
    if not isinstance(value, BaseException):
        return error_class("type")("exceptions must derive from BaseException")
    origin = value.__dict__.get(_ORIGIN) if hasattr(value, "__dict__") else None
    if isinstance(origin, GradcliError):
        return origin  # the error the file caught, raised again
    check_text(value)  # str() of a huge nested argument, before the message is built
    kind = kind_of(type(value))
    err = error_class(kind)(_message(value, kind), "", torch_type=type(value), torch_message=str(value))
    err.torch_args = value.args
    err.user_object = value  # type: ignore[attr-defined]
    return err


def _matches(obj: BaseException, spec: Any) -> bool:
    """``except spec``: does it catch ``obj``?  Python's TypeError for a spec that is no exception class."""
    specs = spec if type(spec) is tuple else (spec,)
    for s in specs:
        if not (isinstance(s, type) and issubclass(s, BaseException)):
            raise TypeError("catching classes that do not inherit from BaseException is not allowed")
    return isinstance(obj, specs)


def _unbinder(comp: Any, name: str, scope: Any) -> Callable[[Any], None]:
    """Python deletes the ``as`` name when the handler ends."""
    where = scope.resolve(name)
    if where[0] == "local":
        idx = where[1]

        def unbind_local(fr: Any) -> None:
            fr[idx] = UNBOUND

        return unbind_local
    G = comp.interp.globals

    def unbind_global(fr: Any) -> None:
        G.pop(name, None)

    return unbind_global


def compile_try(comp: Any, node: ast.Try, scope: Any) -> Callable[[Any], Any]:
    """``try`` / ``except [Class [as name]]`` / ``else`` / ``finally`` as one closure."""
    body = comp.block(node.body, scope)
    handlers = []
    for h in node.handlers:
        type_e = comp.expr(h.type, scope) if h.type is not None else None
        store = comp.store(ast.Name(id=h.name, ctx=ast.Store()), scope) if h.name else None
        unbind = _unbinder(comp, h.name, scope) if h.name else None
        line, col = comp.pos(h)
        handlers.append((type_e, store, unbind, comp.block(h.body, scope), line, col))
    handlers_t = tuple(handlers)
    orelse = comp.block(node.orelse, scope) if node.orelse else None
    final = comp.block(node.finalbody, scope) if node.finalbody else None
    handling = comp.interp.rt.handling
    fix = errmap.fix
    P = position

    def guarded(fr: Any) -> Any:
        try:
            r = body(fr)
        except Exception as e:
            err = catchable(e)
            if err is None:
                raise
            obj = visible(err)
            for type_e, store, unbind, hbody, line, col in handlers_t:
                if type_e is not None:
                    P.loc = (line, col) if line is not None else None
                    try:
                        caught = _matches(obj, type_e(fr))
                    except Exception as e2:
                        raise fix(e2, line, col)
                    if not caught:
                        continue
                if store is not None:
                    store(fr, obj)
                handling.append(err)
                try:
                    return hbody(fr)
                finally:
                    handling.pop()
                    if unbind is not None:
                        unbind(fr)
            if err is e:
                raise
            raise err
        if r is None and orelse is not None:
            return orelse(fr)
        return r

    if final is None:
        return guarded

    def try_finally(fr: Any) -> Any:
        try:
            r = guarded(fr)
        except BaseException as e:
            if isinstance(e, Exception) and catchable(e) is None:
                raise  # the run ends here (a limit, an internal error): no more of the file runs
            f = final(fr)
            if f is not None:
                return f  # return/break/continue in finally drops the exception, as in Python
            raise
        f = final(fr)
        return r if f is None else f

    return try_finally


def compile_raise(comp: Any, node: ast.Raise, scope: Any) -> Callable[[Any], Any]:
    """``raise``, ``raise X``, ``raise X from Y``."""
    exc_e = comp.expr(node.exc, scope) if node.exc is not None else None
    cause_e = comp.expr(node.cause, scope) if node.cause is not None else None
    line, col = comp.pos(node)
    loc = (line, col) if line is not None else None
    handling = comp.interp.rt.handling
    check_text = comp.interp.budget.check_text
    fix = errmap.fix
    P = position

    def raise_(fr: Any) -> Any:
        P.loc = loc
        if exc_e is None:
            if handling:
                raise handling[-1]  # a bare raise: the error being handled, as it was
            raise fix(error_class("runtime")("RuntimeError: No active exception to reraise",
                                             torch_message="No active exception to reraise"), line, col)
        value = exc_e(fr)
        if cause_e is not None:
            cause = cause_e(fr)
            if not (cause is None or isinstance(cause, BaseException)
                    or (isinstance(cause, type) and issubclass(cause, BaseException))):
                raise fix(error_class("type")("exception causes must derive from BaseException"), line, col)
        try:
            err = from_raised(value, check_text)
        except Exception as e:  # the exception class's own constructor failed (raise KeyError(...) misuse)
            raise fix(e, line, col)
        raise fix(err, line, col)

    return raise_
