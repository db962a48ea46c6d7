"""Python's binary, in-place and comparison operators, with size guards (one set per run).

``x * y``, ``x ** y``, ``x << y``, ``x + y`` on Python ints and sequences can
build arbitrarily large objects without a loop; these versions check the
result size first against the run's limits (``Limits.max_int_bits``,
``Limits.max_elements`` via ``Budget.check_size``).  ``%`` on strings
(printf-style formatting) checks every width and precision first (lang/formatting.py).  Operators on other values (tensors) are
plain Python operators, i.e. they call the value's own dunder methods --
``x += y`` calls ``__iadd__``, so a tensor is updated in place as in PyTorch.
"""

from __future__ import annotations

import ast
import operator
import re

from ..errors import GradcliError, error_class
from .formatting import printf
from .limits import Budget, Limits, limit_error

__all__ = ["Operators", "COMPARE", "UNARY"]


def _err(kind: str, message: str) -> GradcliError:
    return error_class(kind)(message)


_SEQ_TYPES = (list, str, tuple, bytes)


def _index(x):
    """``operator.index(x)`` (an int, a bool, a one-element integer tensor ...), or None when it has none."""
    if type(x) is int:
        return x
    try:
        return operator.index(x)
    except Exception:  # noqa: BLE001 - not an index: the operation itself raises its own error
        return None


def _seq_name(x) -> str:
    for t in _SEQ_TYPES:
        if isinstance(x, t):
            return t.__name__
    return type(x).__name__
_FMT_NUM = re.compile(r"\d+")


class Operators:
    """Binary/in-place operators of one run (size guards read the run's limits)."""

    def __init__(self, limits: Limits, budget: Budget) -> None:
        max_bits = limits.max_int_bits
        check_size = budget.check_size
        max_width = limits.max_format_width

        def int_bits(bits: int) -> None:
            if bits > max_bits:
                raise limit_error(
                    f"the integer result would have about {bits:,} bits (limit {max_bits:,})", "max_int_bits"
                )

        # size guards by isinstance and operator.index (issue 20): a torch.Size is a tuple subclass, and
        # `shape * (6 * 10**8)` built 4.6 GB past the exact-type checks
        def add(a, b):
            ta = type(a)
            if ta is not float and isinstance(a, _SEQ_TYPES) and isinstance(b, _SEQ_TYPES):
                check_size(len(a) + len(b), _seq_name(a))
            return a + b

        def iadd(a, b):
            ta = type(a)
            if ta is not float and isinstance(a, _SEQ_TYPES) and hasattr(b, "__len__"):
                check_size(len(a) + len(b), _seq_name(a))
            a += b
            return a

        def _mul_check(a, b):
            if isinstance(a, _SEQ_TYPES):
                n = _index(b)
                if n is not None:
                    check_size(len(a) * n, _seq_name(a))
            elif isinstance(b, _SEQ_TYPES) and isinstance(a, int):  # a Tensor's own * takes a sequence first
                check_size(len(b) * int(a), _seq_name(b))
            elif type(a) is int and type(b) is int:
                int_bits(a.bit_length() + b.bit_length())

        def mul(a, b):
            if type(a) is not float:  # the hot path of numbers
                _mul_check(a, b)
            return a * b

        def imul(a, b):
            if type(a) is not float:
                _mul_check(a, b)
            a *= b
            return a

        def _pow_check(a, b):
            if type(a) is int and type(b) is int and b > 0 and a not in (0, 1, -1):
                int_bits(a.bit_length() * b)

        def pow_(a, b):
            _pow_check(a, b)
            return a**b

        def ipow(a, b):
            _pow_check(a, b)
            a **= b
            return a

        def _lshift_check(a, b):
            if type(a) is int and type(b) is int and a and b > 0:
                int_bits(a.bit_length() + b)

        def lshift(a, b):
            _lshift_check(a, b)
            return a << b

        def ilshift(a, b):
            _lshift_check(a, b)
            a <<= b
            return a

        def mod(a, b):
            if type(a) is str or type(a) is bytes:
                budget.check_text(b)
                return printf(a, b, max_width)
            return a % b

        def imod(a, b):
            if type(a) is str or type(a) is bytes:
                budget.check_text(b)
                return printf(a, b, max_width)
            a %= b
            return a

        def contains(container, item):  # `item in container`
            if type(container) is range and type(item) not in (int, bool):
                budget.charge(len(container))
            return item in container

        def unpack(v):  # *v in a display or a call
            if type(v) is range:
                check_size(len(v), "sequence")
                budget.charge(len(v))
            elif hasattr(v, "__len__"):
                check_size(len(v), "sequence")
            return v

        def fmt(v, spec):
            if spec:
                for m in _FMT_NUM.findall(spec):
                    if len(m) > 6 or int(m) > max_width:
                        raise limit_error(
                            f"format spec {spec!r}: width or precision above {max_width:,}", "max_format_width"
                        )
            budget.check_text(v)  # f"{L}" of a hugely shared nested list (Budget.check_text)
            return format(v, spec)

        self.binary = {
            ast.Add: add, ast.Sub: operator.sub, ast.Mult: mul, ast.MatMult: operator.matmul,
            ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: mod, ast.Pow: pow_,
            ast.LShift: lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
            ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
        }
        # operators that cannot blow up when one side is a float constant
        self.plain = {
            ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
            ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow,
        }
        self.inplace = {
            ast.Add: iadd, ast.Sub: operator.isub, ast.Mult: imul, ast.MatMult: operator.imatmul,
            ast.Div: operator.itruediv, ast.FloorDiv: operator.ifloordiv, ast.Mod: imod, ast.Pow: ipow,
            ast.LShift: ilshift, ast.RShift: operator.irshift, ast.BitOr: operator.ior,
            ast.BitXor: operator.ixor, ast.BitAnd: operator.iand,
        }
        self.contains = contains
        self.unpack = unpack
        self.fmt = fmt


COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}
