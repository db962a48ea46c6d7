"""Exceptions -> SPEC §4 error kinds, and positions (the innermost one wins).

:func:`fix` is called by every interpreter closure that catches an exception
(on the error path only): it returns the exception to raise.

* a :class:`~gradcli.errors.GradcliError` keeps its kind; its ``line``/``col``
  are set only if still empty, so the innermost position in the file wins;
* a Python exception from the user's own operations is converted:
  TypeError -> ``type``, IndexError -> ``index``, NameError -> ``name``,
  AssertionError -> ``assertion``, RecursionError/MemoryError -> ``limit``,
  ZeroDivisionError/ValueError/KeyError/OverflowError/AttributeError/other
  ArithmeticError, LookupError and RuntimeError -> ``runtime``;
* a Python exception that was *raised inside gradcli's engine code* (a frame of
  a ``gradcli.*`` module outside ``gradcli.lang`` between the catching closure
  and the raise point) is an internal bug, as is any exception of another
  type: it is returned unchanged so it propagates to the CLI (exit 70) --
  except TypeError/IndexError, which the engine raises for wrong arguments
  just as PyTorch does, and RecursionError/MemoryError, always ``limit``.

Call expressions also record the chain of call sites in ``err.frames``
(outermost first, the error's own position last).
"""

from __future__ import annotations

from types import TracebackType
from typing import Optional

from ..errors import GradcliError, error_class

__all__ = ["fix", "convert", "python_kind", "raised_in_engine"]

_RUNTIME_TYPES = (ArithmeticError, ValueError, LookupError, AttributeError, RuntimeError, UnicodeError)


def raised_in_engine(exc: BaseException) -> bool:
    """Was ``exc`` raised in (or below) gradcli engine code, i.e. not by the language layer?

    Looks at the traceback frames deeper than the catching frame: any frame of a
    ``gradcli.*`` module other than ``gradcli.lang.*`` means the engine raised it.
    """
    tb: Optional[TracebackType] = exc.__traceback__
    if tb is not None:
        tb = tb.tb_next  # skip the catching frame itself
    while tb is not None:
        mod = tb.tb_frame.f_globals.get("__name__", "")
        if isinstance(mod, str) and mod.startswith("gradcli.") and not mod.startswith("gradcli.lang"):
            return True
        tb = tb.tb_next
    return False


def python_kind(exc: BaseException) -> Optional[str]:
    """The SPEC §4 kind of a Python exception raised by user operations, or None (internal)."""
    if isinstance(exc, (RecursionError, MemoryError)):
        return "limit"
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    if raised_in_engine(exc):
        return None
    if isinstance(exc, NameError):
        return "name"
    if isinstance(exc, AssertionError):
        return "assertion"
    if isinstance(exc, _RUNTIME_TYPES):
        return "runtime"
    return None


def _message(exc: BaseException, kind: str) -> str:
    if isinstance(exc, RecursionError):
        return "maximum recursion depth exceeded (the program nests calls or expressions too deeply)"
    if isinstance(exc, MemoryError):
        return "out of memory: the program built an object too large for this machine"
    text = str(exc)
    if kind in ("type", "index", "name", "assertion"):
        return text or type(exc).__name__
    if isinstance(exc, KeyError):
        return f"KeyError: {text}"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def convert(exc: BaseException) -> BaseException:
    """``exc`` as a GradcliError (unchanged if it already is one, or if it is internal)."""
    if isinstance(exc, GradcliError):
        return exc
    kind = python_kind(exc)
    if kind is None:
        return exc
    new = error_class(kind)(_message(exc, kind))
    if kind == "limit":
        new.hint = "Reduce the recursion or the size of what the program builds."
    new.__cause__ = exc
    new.__suppress_context__ = True
    return new


def fix(exc: BaseException, line: Optional[int], col: Optional[int]) -> BaseException:
    """Convert ``exc`` (see :func:`convert`) and give it this position unless it already has one."""
    err = exc if isinstance(exc, GradcliError) else convert(exc)
    if isinstance(err, GradcliError) and err.line is None and line is not None:
        err.line, err.col = line, col
        err.frames.append((line, col if col is not None else 0))
    return err


def add_frame(err: BaseException, line: Optional[int], col: Optional[int]) -> None:
    """Record a call site (outermost first) on an error that already has an inner position."""
    if line is None or not isinstance(err, GradcliError) or not err.frames:
        return
    site = (line, col if col is not None else 0)
    if err.frames[0] != site:
        err.frames.insert(0, site)
