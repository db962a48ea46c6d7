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
  except the engine's deliberate ``ArgumentTypeError``/``ArgumentIndexError``
  (PyTorch's TypeError/IndexError for wrong arguments; a *plain* TypeError or
  IndexError out of engine code is a bug, unless :func:`diagnose_call` finds
  an argument of a type PyTorch refuses), OverflowError (a number of the file that does not fit
  a dtype: PyTorch's "Overflow when unpacking long", ``runtime``), a ValueError
  raised by numpy itself (a value of the file numpy refuses, ``runtime``), and
  RecursionError/MemoryError, always ``limit``.

Call expressions also record the chain of call sites in ``err.frames``
(outermost first, the error's own position last).

:func:`diagnose_call` runs on the error path of a call only, when the callee
(an engine function) raised what would be an internal error: if one of the
arguments has a type PyTorch refuses for that parameter (a list for
``input``, a string for ``dim``, an int beyond 64 bits ...), the error is the
``type`` (or ``runtime``, for an int overflow) error PyTorch raises, worded as
PyTorch words it ("isinf(): argument 'input' (position 1) must be Tensor, not
list").  Nothing is checked on the success path, so calls cost nothing more.
"""

from __future__ import annotations

import re

from types import TracebackType
from typing import Any, Optional

from ..errors import ArgumentIndexError, ArgumentTypeError, GradcliError, error_class

__all__ = ["fix", "convert", "python_kind", "raised_in_engine", "diagnose_call", "fix_call"]

_DELIBERATE = (ArgumentTypeError, ArgumentIndexError)
_RUNTIME_TYPES = (ArithmeticError, ValueError, LookupError, AttributeError, RuntimeError, UnicodeError, StopIteration)


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


def _raised_in_numpy(exc: BaseException) -> bool:
    """Was ``exc`` raised by numpy itself (the innermost Python frame is in numpy, or numpy's C code
    raised it directly below a gradcli frame)?"""
    tb: Optional[TracebackType] = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return False
    mod = last.tb_frame.f_globals.get("__name__", "")
    if isinstance(mod, str) and mod.startswith("numpy"):
        return True
    # a C function of numpy called from the engine: the message is numpy's (shapes, axes, dtypes)
    return isinstance(mod, str) and mod.startswith("gradcli.") and type(exc).__module__.startswith("numpy")


def _engine_bug(exc: BaseException) -> bool:
    """A TypeError/IndexError that gradcli's engine did not raise on purpose (not an ``ArgumentTypeError`` /
    ``ArgumentIndexError``) but that came out of its own code: a bug of gradcli, not the file's ``type`` or
    ``index`` error (a float64 fill passing a list to ``math.log`` was once reported as the user's error)."""
    if not isinstance(exc, (TypeError, IndexError)) or isinstance(exc, _DELIBERATE):
        return False
    if type(exc) is TypeError and str(exc).endswith("object is not callable"):
        return False  # the engine calling what the file gave as a hook or function: PyTorch's TypeError too
    return raised_in_engine(exc)


def python_kind(exc: BaseException) -> Optional[str]:
    """The SPEC §4 kind of a Python exception raised by user operations, or None (internal)."""
    if isinstance(exc, (RecursionError, MemoryError)):
        return "limit"
    if _engine_bug(exc):
        return None
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    if isinstance(exc, OverflowError):  # a number that does not fit (PyTorch: "Overflow when unpacking long")
        return "runtime"
    if isinstance(exc, ValueError) and str(exc).startswith("operands could not be broadcast together"):
        return "shape"  # numpy's broadcasting message, from any elementwise kernel
    if isinstance(exc, ValueError) and str(exc).startswith("can only convert an array of size 1"):
        return "runtime"  # numpy's .item() of a multi-element array (PyTorch: one-element tensors only)
    if isinstance(exc, ValueError) and _raised_in_numpy(exc):
        # numpy refusing a value an engine op passed on from the file (an axis, a shape, a nan size):
        # PyTorch refuses it too, as a RuntimeError; the differential tests still see a wrong kind
        return "runtime"
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
        return "out of memory: the program needed more memory than its limit (--max-memory) allows"
    text = str(exc)
    if kind in ("type", "index", "name", "assertion"):
        return text or type(exc).__name__
    if isinstance(exc, KeyError):
        return f"KeyError: {text}"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _builtin_class(cls: type) -> type:
    """The nearest built-in exception class of ``cls`` (ArgumentTypeError -> TypeError)."""
    for c in cls.__mro__:
        if c.__module__ == "builtins":
            return c
    return RuntimeError  # pragma: no cover - every exception derives from BaseException


def convert(exc: BaseException) -> BaseException:
    """``exc`` as a GradcliError (unchanged if it already is one, or if it is internal).

    What a file that catches it sees (``torch_type``/``torch_message``/``torch_args``): an exception of
    the file's own operations keeps its class, text and args (``d["k"]`` is ``KeyError('k')``); one the
    engine or numpy raised is PyTorch's class for the kind, with the text."""
    if isinstance(exc, GradcliError):
        return exc
    if type(exc) is ValueError and str(exc).startswith("maximum supported dimension for an ndarray"):
        # PyTorch's tensors have no such bound; numpy's arrays (gradcli's storage) stop at 64 dims
        new = error_class("unsupported")(f"a tensor of more than 64 dims: gradcli's tensors are numpy arrays, "
                                         f"which stop at 64 ({exc}); PyTorch allows more")
        new.__cause__ = exc
        new.__suppress_context__ = True
        return new
    digits = _int_digits(exc)
    if digits is not None:
        return digits
    kind = python_kind(exc)
    if kind is None:
        return exc
    new = error_class(kind)(_message(exc, kind))
    if kind != "limit":
        new.torch_message = str(exc)
        if isinstance(exc, _DELIBERATE) or not raised_in_engine(exc):
            new.torch_type = _builtin_class(type(exc))
            if not raised_in_engine(exc):
                new.torch_args = tuple(exc.args)
    if kind == "limit":
        if isinstance(exc, MemoryError):
            new.hint = "Raise it with --max-memory SIZE (e.g. --max-memory 8G) if the program really needs more."
            new.limit = "max_memory"  # type: ignore[attr-defined]
        else:
            new.hint = "Reduce the recursion or the size of what the program builds."
    new.__cause__ = exc
    new.__suppress_context__ = True
    return new


_DIGITS = re.compile(r"Exceeds the limit \((\d+) digits\) for integer string conversion(?:: value has (\d+) digits)?")


def _int_digits(exc: BaseException) -> Optional[BaseException]:
    """Python's int/str conversion limit (``str(10**5000)``, ``int('1' * 5000)``) as a ``limit`` error of
    gradcli's words: its advice, ``sys.set_int_max_str_digits()``, names an API outside the language
    (issue 20); None for any other exception."""
    if type(exc) is not ValueError:
        return None
    m = _DIGITS.match(str(exc))
    if m is None:
        return None
    from .limits import limit_error

    cap = int(m.group(1))
    what = f"{int(m.group(2)):,}" if m.group(2) else f"more than {cap:,}"
    new = limit_error(f"an int of {what} digits cannot be converted to or from a string (Python's limit is "
                      f"{cap:,} digits)", "max_int_digits")
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


# ---------------------------------------------------------------------------------------------
# wrong argument types reaching engine functions (error path only)
# ---------------------------------------------------------------------------------------------
# PyTorch's parameter names, by the type PyTorch's argument parser requires
_TENSOR_PARAMS = frozenset({
    "input", "self", "tensor", "mat", "mat1", "mat2", "vec", "vec1", "vec2", "batch1", "batch2", "target",
    "mask", "index", "condition", "src", "source", "end", "indices", "grad_output", "a", "b",
})
_TENSOR_OR_NUMBER_PARAMS = frozenset({
    "other", "exponent", "min", "max", "value", "fill_value", "alpha", "beta", "weight", "bias", "scalar",
    "lambd", "negative_slope", "threshold", "min_val", "max_val", "rtol", "atol", "eps", "p", "low", "high",
    "start", "step", "label_smoothing", "pos_weight", "margin", "divisor",
})
# ops whose ``other`` PyTorch requires to be a Tensor (most binary ops also take a Number there)
_TENSOR_OTHER = frozenset({
    "maximum", "minimum", "fmax", "fmin", "hypot", "atan2", "arctan2", "logical_and", "logical_or",
    "logical_xor", "isclose", "allclose", "equal", "dot", "vdot", "outer", "ger", "mm", "mv", "bmm", "matmul",
    "logaddexp", "logaddexp2", "cross", "kron",
})
_INT_PARAMS = frozenset({
    "dim", "dim0", "dim1", "dim2", "start_dim", "end_dim", "diagonal", "offset", "k", "chunks", "shifts",
    "dims", "num_classes", "repeats", "steps", "ignore_index", "n", "m", "length", "split_size_or_sections",
    "split_size", "sections", "size", "sizes", "shape", "correction", "ord",
})
_BOOL_PARAMS = frozenset({
    "keepdim", "requires_grad", "retain_graph", "create_graph", "inplace", "unbiased", "largest", "sorted",
    "allow_unused", "only_inputs", "equal_nan", "accumulate", "sparse_grad", "strict", "vectorize",
    "materialize_grads", "is_grads_batched", "check_nan", "mode", "enabled", "force", "non_blocking", "copy",
    "use_reentrant", "preserve_rng_state", "descending", "stable",
})
_INT64 = (-(1 << 63), (1 << 64) - 1)
_TENSOR_TYPE: list = []


def _tensor_type() -> Optional[type]:
    if not _TENSOR_TYPE:
        try:
            from ..autograd.tensor import Tensor
        except ImportError:  # pragma: no cover - no engine
            return None
        _TENSOR_TYPE.append(Tensor)
    return _TENSOR_TYPE[0]


def _huge_int(v: object, depth: int = 0) -> bool:
    if type(v) is int:
        return not _INT64[0] <= v <= _INT64[1]
    if depth < 3 and type(v) in (list, tuple) and len(v) <= 64:
        return any(_huge_int(x, depth + 1) for x in v)
    return False


def _type_name(v: object) -> str:
    name = getattr(type(v), "_gradcli_type_name", None)
    return name if isinstance(name, str) else type(v).__name__


def _expected(name: str, value: object, default: object, fname: str, T: type,
              annotation: object = None) -> Optional[str]:
    """What ``name`` should have been when ``value`` is of a type PyTorch refuses there, else None.

    A parameter the engine function annotates as exactly ``int`` is PyTorch's ``int``: a bool, a float or a
    sequence there is refused (``unsafe_split(): argument 'split_size' (position 1) must be int, not tuple``)."""
    if value is None and default is None:
        return None
    if annotation in ("int", int):
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, T) and value.numel() == 1 and not value._dtype.is_floating_point
            and value._dtype.name != "bool")
        return None if ok else "int"
    number = (int, float, bool, complex)
    if name in _TENSOR_PARAMS or (name == "other" and (fname.endswith("_as") or fname in _TENSOR_OTHER)):
        return None if isinstance(value, T) else "Tensor"
    if name == "tensors":
        if isinstance(value, (list, tuple)) and all(isinstance(t, T) for t in value):
            return None
        return "tuple of Tensors"
    if name in _TENSOR_OR_NUMBER_PARAMS:
        return None if isinstance(value, (T,) + number) else "Tensor or Number"
    if name in _INT_PARAMS:
        if isinstance(value, int) or (isinstance(value, T) and value.numel() == 1):
            return None
        if isinstance(value, (list, tuple)) and all(isinstance(v, int) for v in value):
            return None
        return "int or tuple of ints"
    if name in _BOOL_PARAMS:
        return None if isinstance(value, (bool, int)) else "bool"
    if name == "dtype":
        return None if type(value).__name__ == "dtype" else "torch.dtype"
    return None


def _engine_callable(f: Any) -> bool:
    """Is ``f`` a function or method of gradcli's engine (not a user function, not a Python builtin)?"""
    fn = getattr(f, "__func__", f)
    mod = getattr(fn, "__module__", None)
    return isinstance(mod, str) and mod.startswith("gradcli.") and not mod.startswith("gradcli.lang")


def diagnose_call(exc: BaseException, f: Any, args: Any, kwargs: Optional[dict]) -> Optional[GradcliError]:
    """The PyTorch error for a call whose arguments have wrong types, or None (then ``exc`` is a bug).

    Called only when ``f`` (not a user function) raised an exception that is not a user error.
    """
    import inspect

    T = _tensor_type()
    if T is None or not _engine_callable(f):
        return None
    args = tuple(args or ())
    kwargs = dict(kwargs or {})
    for v in list(args) + list(kwargs.values()):
        if _huge_int(v):
            return error_class("runtime")("Overflow when unpacking long: an integer argument does not fit in 64 bits")
    fname = getattr(f, "__name__", None) or _type_name(f)
    fname = fname if isinstance(fname, str) else "function"
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        return error_class("type")(f"{fname}(): {e}")
    positions = {name: i + 1 for i, name in enumerate(sig.parameters) if i < len(args)}
    for name, value in bound.arguments.items():
        param = sig.parameters[name]
        values = value if param.kind is param.VAR_POSITIONAL else (value,)
        if param.kind is param.VAR_KEYWORD:
            continue
        for v in values:
            want = _expected(name, v, param.default, fname, T, param.annotation)
            if want is not None:
                where = f" (position {positions[name]})" if name in positions else ""
                return error_class("type")(f"{fname}(): argument '{name}'{where} must be {want}, not {_type_name(v)}")
    return None


def fix_call(exc: BaseException, f: Any, args: Any, kwargs: Optional[dict], line: Optional[int],
             col: Optional[int]) -> BaseException:
    """:func:`fix` for a failed call, with :func:`diagnose_call` for what would be an internal error."""
    if getattr(exc, "rediagnose", False) is True or _engine_bug(exc) or (
            not isinstance(exc, (GradcliError, TypeError, IndexError, RecursionError, MemoryError))
            and isinstance(exc, Exception) and raised_in_engine(exc)):
        # an engine function failed on what the file gave it: a wrong argument type is PyTorch's TypeError
        # (more precise than the kind the exception alone would map to)
        try:
            better = diagnose_call(exc, f, args, kwargs)
        except Exception:  # pragma: no cover - diagnosis must never hide the original error
            better = None
        if better is not None:
            better.__cause__ = exc
            better.__suppress_context__ = True
            exc = better
    err = fix(exc, line, col)
    add_frame(err, line, col)
    return err
