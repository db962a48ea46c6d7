"""``str.format`` and ``%``-formatting for the language (SPEC §2b), with plain fields only.

Python's ``"{0.__class__}".format(x)`` reads attributes and items of its arguments inside the format
call, past any static check, so the language never calls ``str.format`` itself.  :func:`str_format`
parses the format string with Python's own parser (``string.Formatter``) and formats each field with
the run's size-checked ``format`` (``Operators.fmt``: widths and precisions are bounded):

* a field is an automatic (``{}``) or numbered (``{0}``) positional argument, or a keyword (``{name}``),
  with an optional conversion (``!r !s !a``) and format spec, which may nest one level of fields
  (``{:{width}}``) as Python allows;
* a field that reaches an attribute or an index (``{0.real}``, ``{0[1]}``, ``{x.__class__}``) is an
  ``unsupported`` error naming the field.

:func:`printf` is ``fmt % args`` after a check of every conversion's width and precision (``*`` widths
read from the arguments), since ``'%999999999d' % 1`` builds its text in one C call.  A ``%(key)s``
mapping key reads an item of the mapping argument, never an attribute.
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable

from ..errors import error_class
from .limits import limit_error

__all__ = ["str_format", "printf"]

_PARSER = string.Formatter()


def _field_value(field: str, args: tuple, kwargs: dict, auto: list) -> Any:
    if "." in field or "[" in field:
        raise error_class("unsupported")(
            f"format field {{{field}}} reaches an attribute or an index, which is outside the language",
            "Compute the value first (an f-string or a variable), then format it: '{}'.format(x.attr).")
    if field == "":
        if auto[0] is False:
            raise ValueError("cannot switch from manual field specification to automatic field numbering")
        auto[0] = True
        i = auto[1]
        auto[1] += 1
        if i >= len(args):
            raise IndexError(f"Replacement index {i} out of range for positional args tuple")
        return args[i]
    if field.isdigit():
        if auto[0] is True:
            raise ValueError("cannot switch from automatic field numbering to manual field specification")
        auto[0] = False
        i = int(field)
        if i >= len(args):
            raise IndexError(f"Replacement index {i} out of range for positional args tuple")
        return args[i]
    if field not in kwargs:
        raise KeyError(field)
    return kwargs[field]


def _render(fmt: str, args: tuple, kwargs: dict, fmt_field: Callable[[Any, str], str], auto: list,
            depth: int) -> str:
    if depth > 2:
        raise ValueError("Max string recursion exceeded")
    out = []
    for literal, field, spec, conv in _PARSER.parse(fmt):
        out.append(literal)
        if field is None:
            continue
        value = _field_value(field, args, kwargs, auto)
        if conv == "r":
            value = repr(value)
        elif conv == "s":
            value = str(value)
        elif conv == "a":
            value = ascii(value)
        elif conv is not None:
            raise ValueError(f"Unknown conversion specifier {conv}")
        if spec and "{" in spec:
            spec = _render(spec, args, kwargs, fmt_field, auto, depth + 1)
        out.append(fmt_field(value, spec or ""))
    return "".join(out)


def str_format(fmt: str, fmt_field: Callable[[Any, str], str], *args: Any, **kwargs: Any) -> str:
    """``fmt.format(*args, **kwargs)`` with plain fields only (see the module docstring)."""
    return _render(fmt, args, kwargs, fmt_field, [None, 0], 1)


# %[(key)][flags][width][.precision][length]type
_PRINTF = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                     r"[hlL]?(?P<type>.)", re.S)


def printf(fmt: Any, args: Any, max_width: int) -> Any:
    """``fmt % args`` for a str/bytes ``fmt``, refusing widths or precisions above ``max_width``."""
    text = fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt
    star_args = list(args) if isinstance(args, tuple) else [args]
    pos = 0
    for m in _PRINTF.finditer(text):
        if m.group("type") == "%" and not m.group("width") and not m.group("prec"):
            continue
        for part in ("width", "prec"):
            v = m.group(part)
            if v == "*":
                n = star_args[pos] if pos < len(star_args) else 0
                pos += 1
                if type(n) is int and abs(n) > max_width:
                    raise limit_error(f"format width {n:,} above {max_width:,}", "max_format_width")
            elif v is not None and (len(v) > 6 or int(v) > max_width):
                raise limit_error(f"format spec %{v}: width or precision above {max_width:,}", "max_format_width")
        if m.group("key") is None:
            pos += 1
    return fmt % args
