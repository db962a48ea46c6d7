"""The ``math`` module a file imports (SPEC §2b): a gradcli namespace, not Python's module.

It holds the constants and functions of Python's ``math`` that real snippets use (``math.pi``,
``math.sqrt(784)``, ``math.exp``, ``math.log``, ``math.isclose`` ...), each Python's own function, so
values are Python's bit for bit (``math.sqrt(t)`` of a one-element tensor works as in PyTorch, through
``Tensor.__float__``).  The functions whose C code can run for long on small arguments are bounded by the
run's budget: ``factorial``/``comb``/``perm`` check the size of their result against ``--max-int-bits``
first, ``prod``/``fsum`` charge a step per item.  Nothing else of Python's module (``math.__loader__`` ...)
is reachable: the namespace exposes exactly these names.
"""

from __future__ import annotations

import math
from typing import Any

from .limits import Budget, Limits, limit_error

__all__ = ["math_namespace", "NAMES"]

_CONSTANTS = ("pi", "e", "tau", "inf", "nan")
_PLAIN = (
    "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan",
    "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "fabs", "pow", "isnan",
    "isinf", "isfinite", "isclose", "erf", "erfc", "gamma", "lgamma", "hypot", "degrees", "radians", "copysign",
    "fmod", "modf", "frexp", "ldexp", "gcd", "lcm", "isqrt", "dist", "cbrt", "remainder", "nextafter", "ulp",
)
#: every name of the ``math`` namespace
NAMES = _CONSTANTS + _PLAIN + ("factorial", "comb", "perm", "prod", "fsum")


def math_namespace(budget: Budget, limits: Limits) -> Any:
    """A fresh ``math`` namespace whose costly functions are bounded by ``budget``/``limits``."""
    from ..api import Namespace

    max_bits = limits.max_int_bits

    def bits(n: float, what: str) -> None:
        if n > max_bits:
            raise limit_error(f"{what} would have about {int(n):,} bits (limit {max_bits:,})", "max_int_bits")

    def charge(iterable: Any) -> Any:
        if type(iterable) is range:
            budget.charge(len(iterable))
        elif hasattr(iterable, "__len__"):
            budget.charge(len(iterable))
        return iterable

    def factorial(n: Any, /) -> int:
        if type(n) is int and n > 2:
            bits(n * math.log2(n), f"math.factorial({n})")
        return math.factorial(n)

    def comb(n: Any, k: Any, /) -> int:
        if type(n) is int and type(k) is int and n > 2 and 0 < k < n:
            bits(min(k, n - k) * math.log2(n), f"math.comb({n}, {k})")
        return math.comb(n, k)

    def perm(n: Any, k: Any = None, /) -> int:
        if type(n) is int and n > 2 and (k is None or (type(k) is int and k > 0)):
            bits((n if k is None else min(k, n)) * math.log2(n), f"math.perm({n}, {k})")
        return math.perm(n, k)

    def prod(iterable: Any, /, *, start: Any = 1) -> Any:
        acc = start
        for x in charge(iterable):
            if type(acc) is int and type(x) is int:
                bits(acc.bit_length() + x.bit_length(), "math.prod(...)")
            acc = acc * x
        return acc

    def fsum(iterable: Any, /) -> float:
        return math.fsum(charge(iterable))

    members: dict[str, Any] = {n: getattr(math, n) for n in _CONSTANTS}
    members.update({n: getattr(math, n) for n in _PLAIN if hasattr(math, n)})
    for fn in (factorial, comb, perm, prod, fsum):
        fn.__name__ = fn.__qualname__ = fn.__name__
        members[fn.__name__] = fn
    return Namespace("math", members)
