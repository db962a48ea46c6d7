"""The Python builtins a file sees (SPEC §2), bounded by the run's budget.

Exactly: ``print range len float int bool abs min max sum list tuple round
isinstance True False None`` plus ``enumerate zip reversed str dict``, SPEC §2b's
``sorted map filter any all set frozenset super iter next hasattr getattr repr divmod``, ``type`` (one argument,
a class the file can name: lang/type_builtin.py), the name
``__name__`` (``"__main__"``), and the exception classes of SPEC §2b (``RuntimeError`` ...: the real
classes, see :mod:`.exceptions`).

* ``print`` writes to the run's buffer (never the real stdout), counting its
  size against ``Limits.max_output``; ``file=`` is refused;
* the types (``int float bool str list tuple dict range``) are the real ones, so
  ``isinstance(x, float)`` works; calling ``list``/``tuple``/``dict`` goes
  through :data:`CONSTRUCTOR_OVERRIDES` (the interpreter's call path swaps
  them), which checks sizes and charges the steps a C-level loop over a
  ``range`` would take;
* ``str``/``print`` of nested lists/tuples/dicts check a lower bound of the text's length first
  (``Budget.check_text``: a list shared 10^4 times would otherwise be written in one C call);
* ``sum``/``min``/``max`` charge ``len(range)`` steps before looping in C;
  ``enumerate``/``zip``/``reversed``/``map``/``filter`` are generators that tick per item, ``any``/``all``
  loop in Python with a tick per item, ``sorted``/``set``/``frozenset`` size-check and charge what they
  build, so no builtin can loop in C for longer than the step budget allows;
* ``getattr``/``hasattr`` read through the attribute gate (``access.get_attr``), so they reach exactly
  what ``obj.name`` reaches; a ``_`` name is refused (``unsupported``), as it is in ``obj._name``;
* ``super`` is the two-argument form (the interpreter compiles ``super()`` in a method itself).
"""

from __future__ import annotations

import io
from typing import Any, Callable

import builtins

from ..errors import GradcliError, error_class
from .access import del_attr, get_attr, set_attr
from .limits import Budget
from .validate import EXCEPTION_NAMES

__all__ = ["make_builtins", "OutputBuffer"]


class OutputBuffer:
    """The file's stdout: a string buffer with a size budget."""

    __slots__ = ("_buf", "_budget")

    def __init__(self, budget: Budget) -> None:
        self._buf = io.StringIO()
        self._budget = budget

    def write(self, text: str) -> None:
        self._budget.add_output(len(text))
        self._buf.write(text)

    def getvalue(self) -> str:
        return self._buf.getvalue()


def make_builtins(budget: Budget, out: OutputBuffer, namespaces: Callable[[], list] = list,
                  ) -> tuple[dict[str, Any], dict[Any, Callable]]:
    """(builtins by name, constructor overrides by type) for one run; ``namespaces()`` gives the run's
    namespace roots (its ``torch``), whose classes ``type(obj)`` may return (lang/type_builtin.py)."""
    tick = budget.tick
    check_text = budget.check_text
    wrappers: dict = {}  # the checked constructors (filled at the end): what a raw type passed as a value becomes

    def checked(fn: Any) -> Any:
        """``fn`` as user code may hand it to C: a builtin type (``key=list``, ``map(str, ...)``) becomes its
        size-checked constructor (issue 20: ``max([range(10**8)], key=list)`` built 3.9 GB, no step charged)."""
        if isinstance(fn, type):
            return wrappers.get(fn, fn)
        return fn

    def charge_range(obj: Any, build: bool = False) -> None:
        # a C-level loop over a range costs its length in steps (and, to build a container, its size)
        if type(obj) is range:
            n = len(obj)
            if build:
                budget.check_size(n, "sequence")
            budget.charge(n)

    def print_(*args: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: bool = False) -> None:
        if file is not None:
            raise error_class("unsupported")("print(file=...) is outside the language: output goes to stdout")
        if sep is None:
            sep = " "
        if end is None:
            end = "\n"
        if not isinstance(sep, str):
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if not isinstance(end, str):
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        for a in args:
            check_text(a, True)  # a hugely shared nested list: refused before str() spends minutes in C
        texts = [str(a) for a in args]
        # the whole line is counted before it is built (print(*range(450), sep='a' * 10**7): 4.3 GB)
        budget.check_output(sum(map(len, texts)) + len(sep) * max(0, len(texts) - 1) + len(end))
        out.write(sep.join(texts) + end)

    def sum_(iterable: Any, /, start: Any = 0) -> Any:
        charge_range(iterable)
        if type(start) in (int, float, bool, complex) and type(iterable) in (range, list, tuple):
            if all(type(x) in (int, float, bool, complex) for x in iterable):
                return sum(iterable, start)
        # anything else (tensors, sequences): add one by one, each step counted and checked
        if isinstance(start, (str, bytes)):
            raise TypeError("sum() can't sum strings [use ''.join(seq) instead]")
        acc = start
        for x in iterable:
            tick[0] -= 1
            if tick[0] <= 0:
                budget.refill()
            if type(acc) in (list, tuple) and type(x) is type(acc):
                budget.check_size(len(acc) + len(x), type(acc).__name__)
                budget.check_time()
            acc = acc + x
        return acc

    def min_(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1:
            charge_range(args[0])
        if "key" in kwargs:
            kwargs["key"] = checked(kwargs["key"])
        return min(*args, **kwargs)

    def max_(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1:
            charge_range(args[0])
        if "key" in kwargs:
            kwargs["key"] = checked(kwargs["key"])
        return max(*args, **kwargs)

    def round_(number: Any, ndigits: Any = None) -> Any:
        # round(int, -n) computes 10**n in C (round(5, -10**8) would never come back): when 10**n exceeds
        # twice |number| the result is 0 anyway
        if type(number) is int and type(ndigits) is int and ndigits < 0:
            if -ndigits > number.bit_length() * 0.30103 + 2:
                return 0
        if ndigits is None:
            return round(number)
        return round(number, ndigits)

    def enumerate_(iterable: Any, start: int = 0):
        if not isinstance(start, int):
            raise TypeError(f"'{type(start).__name__}' object cannot be interpreted as an integer")
        it = iter(iterable)

        def gen():
            i = start
            for x in it:
                tick[0] -= 1
                if tick[0] <= 0:
                    budget.refill()
                yield (i, x)
                i += 1

        return gen()

    def zip_(*iterables: Any, strict: bool = False):
        its = [iter(x) for x in iterables]
        z = zip(*its, strict=strict) if strict else zip(*its)

        def gen():
            for t in z:
                tick[0] -= 1
                if tick[0] <= 0:
                    budget.refill()
                yield t

        return gen()

    def reversed_(seq: Any):
        r = reversed(seq)

        def gen():
            for x in r:
                tick[0] -= 1
                if tick[0] <= 0:
                    budget.refill()
                yield x

        return gen()

    def known_length(iterable: Any, what: str) -> bool:
        """Check the size of a sized iterable; False when its ``__len__`` raises a TypeError, which
        Python's ``list()`` ignores (its length hint) before it iterates: ``list(DataLoader(iterable_ds))``."""
        if not hasattr(iterable, "__len__") or type(iterable) is range:
            return True
        try:
            n = len(iterable)
        except TypeError:
            return False
        except GradcliError as e:
            if e.kind != "type":
                raise
            return False
        budget.check_size(n, what)
        return True

    def each(iterable: Any, what: str) -> Any:
        """The items of ``iterable`` through a generator (no ``__len__``, so Python asks no length hint
        again), the size checked as it grows."""
        for i, v in enumerate(iterable, 1):
            if i % 4096 == 0:  # 4096 more items: their cost (as check_size's), and the size against the limit
                if i > budget.limits.max_elements:
                    budget.check_size(i, what)
                budget.charge(4096 >> 3)
            yield v

    def list_(iterable: Any = (), /) -> list:
        charge_range(iterable, True)
        return list(iterable) if known_length(iterable, "list") else list(each(iterable, "list"))

    def tuple_(iterable: Any = (), /) -> tuple:
        charge_range(iterable, True)
        return tuple(iterable) if known_length(iterable, "tuple") else tuple(each(iterable, "tuple"))

    def dict_(*args: Any, **kwargs: Any) -> dict:
        if args:
            charge_range(args[0], True)
        return dict(*args, **kwargs)

    def sized(iterable: Any, what: str) -> Any:
        charge_range(iterable, True)
        if hasattr(iterable, "__len__") and type(iterable) is not range:
            budget.check_size(len(iterable), what)
            budget.charge(len(iterable))
        return iterable

    def sorted_(iterable: Any, /, *, key: Any = None, reverse: bool = False) -> list:
        return sorted(sized(iterable, "list"), key=checked(key), reverse=reverse)

    def set_(iterable: Any = (), /) -> set:
        return set(sized(iterable, "set"))

    def frozenset_(iterable: Any = (), /) -> frozenset:
        return frozenset(sized(iterable, "frozenset"))

    def map_(fn: Any, /, *iterables: Any):
        if not iterables:
            raise TypeError("map() must have at least two arguments.")
        m = map(checked(fn), *[iter(x) for x in iterables])

        def gen():
            for v in m:
                tick[0] -= 1
                if tick[0] <= 0:
                    budget.refill()
                yield v

        return gen()

    def filter_(fn: Any, iterable: Any, /):
        it = iter(iterable)
        fn = checked(fn)

        def gen():
            for v in it:
                tick[0] -= 1
                if tick[0] <= 0:
                    budget.refill()
                if (fn(v) if fn is not None else v):
                    yield v

        return gen()

    def any_(iterable: Any, /) -> bool:
        for v in iterable:
            tick[0] -= 1
            if tick[0] <= 0:
                budget.refill()
            if v:
                return True
        return False

    def all_(iterable: Any, /) -> bool:
        for v in iterable:
            tick[0] -= 1
            if tick[0] <= 0:
                budget.refill()
            if not v:
                return False
        return True

    def iter_(obj: Any, /) -> Any:
        return iter(obj)

    _no_default = object()

    def next_(it: Any, default: Any = _no_default, /) -> Any:
        if default is _no_default:
            return next(it)
        return next(it, default)

    def _attr_name(fn: str, name: Any) -> str:
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        if name.startswith("_"):
            raise error_class("unsupported")(f"{fn}(obj, {name!r}): names starting with '_' are outside the language")
        return name

    def _missing(e: GradcliError) -> bool:
        return e.kind == "runtime" and "has no attribute" in e.message

    def hasattr_(obj: Any, name: Any, /) -> bool:
        try:
            get_attr(obj, _attr_name("hasattr", name))
        except GradcliError as e:
            if _missing(e) or e.kind == "unsupported" and "outside the language" not in e.message:
                return False
            raise
        return True

    def getattr_(obj: Any, name: Any, default: Any = _no_default, /) -> Any:
        try:
            return get_attr(obj, _attr_name("getattr", name))
        except GradcliError as e:
            if default is not _no_default and _missing(e):
                return default
            raise

    def setattr_(obj: Any, name: Any, value: Any, /) -> None:
        set_attr(obj, _attr_name("setattr", name), value)  # exactly ``obj.name = value``

    def delattr_(obj: Any, name: Any, /) -> None:
        del_attr(obj, _attr_name("delattr", name))  # exactly ``del obj.name``

    def repr_(obj: Any, /) -> str:
        check_text(obj)
        return repr(obj)

    from .classes import is_user_class, make_super
    from .type_builtin import make_type

    for fn, name in ((print_, "print"), (sum_, "sum"), (min_, "min"), (max_, "max"), (enumerate_, "enumerate"),
                     (zip_, "zip"), (reversed_, "reversed"), (round_, "round"), (sorted_, "sorted"), (map_, "map"),
                     (filter_, "filter"), (any_, "any"), (all_, "all"), (iter_, "iter"), (next_, "next"),
                     (hasattr_, "hasattr"), (getattr_, "getattr"), (setattr_, "setattr"), (delattr_, "delattr"),
                     (repr_, "repr")):
        fn.__name__ = fn.__qualname__ = name
    names: dict[str, Any] = {
        "print": print_,
        "range": range,
        "len": len,
        "float": float,
        "int": int,
        "bool": bool,
        "abs": abs,
        "min": min_,
        "max": max_,
        "sum": sum_,
        "list": list,
        "tuple": tuple,
        "round": round_,
        "isinstance": isinstance,
        "True": True,
        "False": False,
        "None": None,
        "enumerate": enumerate_,
        "zip": zip_,
        "reversed": reversed_,
        "str": str,
        "dict": dict,
        "sorted": sorted_,
        "map": map_,
        "filter": filter_,
        "any": any_,
        "all": all_,
        "set": set,
        "frozenset": frozenset,
        "super": make_super,
        "iter": iter_,
        "next": next_,
        "hasattr": hasattr_,
        "getattr": getattr_,
        "setattr": setattr_,
        "delattr": delattr_,
        "repr": repr_,
        "divmod": divmod,
        "type": make_type(namespaces, is_user_class),
        "__name__": "__main__",
    }
    names.update({n: getattr(builtins, n) for n in EXCEPTION_NAMES})
    def str_(*args: Any, **kwargs: Any) -> str:
        if args:
            check_text(args[0])  # the text of nested containers: bounded like any str (Budget.check_text)
        return str(*args, **kwargs)

    overrides: dict[Any, Callable] = {list: list_, tuple: tuple_, dict: dict_, str: str_, set: set_,
                                      frozenset: frozenset_}
    wrappers.update(overrides)
    return names, overrides
