"""Command-line values -> checked Python values (pure functions, no heavy imports).

The CLI's parse step: every check here raises :class:`~.problems.UsageProblem`
(exit status 2) with a message naming the offending option, so a bad
invocation never reaches the language layer.
"""

from __future__ import annotations

import keyword
from typing import Iterable, Optional

from .problems import UsageProblem

__all__ = [
    "SHOW_COLUMNS",
    "DEFAULT_JSON_MAX_ELEMENTS",
    "parse_sets",
    "parse_names",
    "parse_name_list",
    "parse_show",
    "parse_hide",
    "check_expect_error",
    "parse_size",
]

#: groups of ``run --show`` and the table columns each stands for (``why``: the "why no gradient" table)
SHOW_COLUMNS = {
    "data": ("data",),
    "grad": ("grad",),
    "flags": ("requires_grad", "is_leaf", "grad_fn", "retains_grad"),
    "why": (),
}
#: SPEC §5: tensors above this many elements are summarised in JSON
DEFAULT_JSON_MAX_ELEMENTS = 100_000
#: ``graph --hide`` groups
HIDE_GROUPS = ("accumulate", "views")


def _is_name(text: str) -> bool:
    return text.isidentifier() and not keyword.iskeyword(text)


def _is_tensor_name(text: str) -> bool:
    """A name the run lists tensors under: an identifier, or a module parameter's ``model.fc1.weight`` /
    ``model.0.bias`` (SPEC §2b: NAME.PARAM as named_parameters() names it)."""
    first, *rest = text.split(".")
    return _is_name(first) and all(p.isidentifier() or p.isdigit() for p in rest)


def _check_name(option: str, text: str, dotted: bool = False) -> str:
    name = text.strip()
    if not (_is_tensor_name(name) if dotted else _is_name(name)):
        raise UsageProblem(
            f"{option} {text!r}: {name!r} is not a valid name",
            "Use a Python identifier, e.g. x or w1" + (", or a module parameter, e.g. model.fc1.weight."
                                                       if dotted else "."),
        )
    return name


def parse_sets(items: Optional[Iterable[str]]) -> list[tuple[str, str]]:
    """``--set NAME=VALUE`` texts -> ``[(NAME, VALUE)]`` in command-line order.

    VALUE is kept as text: the language layer turns it into a tensor (number or
    nested list) or evaluates it as an expression.  A missing ``=``, an empty
    VALUE or a NAME that is not an identifier is an invocation error.
    """
    out: list[tuple[str, str]] = []
    for item in items or ():
        if "=" not in item:
            raise UsageProblem(
                f"--set {item!r}: expected NAME=VALUE",
                "For example --set x=2.0, --set 'w=[[1, 2], [3, 4]]' or --set 'n=torch.tensor(3)'.",
            )
        name, value = item.split("=", 1)
        name = _check_name("--set", name) if name.strip() else ""
        if not name:
            raise UsageProblem(f"--set {item!r}: the NAME before '=' is empty", "For example --set x=2.0.")
        if not value.strip():
            raise UsageProblem(f"--set {item!r}: the VALUE after '=' is empty", "For example --set x=2.0.")
        out.append((name, value))
    return out


def parse_names(option: str, items: Optional[Iterable[str]], dotted: bool = False) -> list[str]:
    """Repeatable NAME options (``--requires-grad``, ``--retain-grad``, ``--root``).

    Each item may also be a comma-separated list, for convenience.  ``dotted``: a name of the run's
    tensor list, which may be a module parameter's ``model.fc1.weight`` (``why NAME``, ``--root``).
    """
    out: list[str] = []
    for item in items or ():
        for part in item.split(","):
            if part.strip():
                name = _check_name(option, part, dotted)
                if name not in out:
                    out.append(name)
            else:
                raise UsageProblem(f"{option} {item!r}: empty name")
    return out


def parse_name_list(option: str, text: Optional[str]) -> Optional[list[str]]:
    """``--inputs a,b`` -> ``['a', 'b']`` (None when the option is absent)."""
    if text is None:
        return None
    names = [p.strip() for p in text.split(",")]
    if not names or any(not n for n in names):
        raise UsageProblem(f"{option} {text!r}: expected NAME[,NAME...]", f"For example {option} x,w.")
    return [_check_name(option, n) for n in names]


def _parse_groups(option: str, text: str, allowed: Iterable[str]) -> frozenset[str]:
    allowed = tuple(allowed)
    parts = [p.strip().lower() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in allowed]
    if bad or not parts:
        raise UsageProblem(
            f"{option} {text!r}: unknown value {bad[0]!r}" if bad else f"{option}: nothing given",
            f"Choose from: {', '.join(allowed)} (comma-separated).",
        )
    return frozenset(parts)


def parse_show(text: Optional[str]) -> frozenset[str]:
    """``--show data,grad,flags,why`` -> the groups to show (all when absent; ``why`` is the "why no
    gradient" table, shown only when named once --show is given)."""
    if text is None:
        return frozenset(SHOW_COLUMNS)
    return _parse_groups("--show", text, SHOW_COLUMNS)


def parse_hide(text: Optional[str]) -> frozenset[str]:
    """``graph --hide accumulate,views`` -> the node groups to hide (none when absent)."""
    if text is None:
        return frozenset()
    return _parse_groups("--hide", text, HIDE_GROUPS)


def check_expect_error(kind: Optional[str]) -> Optional[str]:
    """Validate ``--expect-error KIND`` against the error kinds of SPEC §4."""
    if kind is None:
        return None
    from ..errors import ERROR_KINDS  # leaf module: cheap

    k = kind.strip()
    if k not in ERROR_KINDS:
        raise UsageProblem(
            f"--expect-error {kind!r}: unknown error kind",
            "Known kinds: " + ", ".join(ERROR_KINDS) + ".",
        )
    return k


_SIZE_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
               "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
               "tib": 1 << 40}


#: the largest size an option takes: what the kernel's resource limits hold (a signed 64-bit count)
MAX_SIZE = (1 << 63) - 1


def parse_size(option: str, text: Optional[str]) -> Optional[int]:
    """``--max-memory 8G`` -> bytes: a number with an optional unit (K, M, G, T; binary multiples)."""
    if text is None:
        return None
    t = text.strip().lower().replace(" ", "")
    i = len(t)
    while i and not (t[i - 1].isdigit() or t[i - 1] == "."):
        i -= 1
    number, unit = t[:i], t[i:]
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if unit not in _SIZE_UNITS or not value > 0 or value != value or value == float("inf"):
        raise UsageProblem(f"{option} {text!r}: expected a size such as 512M, 4G or 1073741824",
                           "Units: K, M, G, T (powers of 1024); a plain number is bytes.")
    size = int(value * _SIZE_UNITS[unit])
    if size > MAX_SIZE:  # issue 20: --max-memory 1e30 overflowed setrlimit (exit 70)
        raise UsageProblem(f"{option} {text!r}: too large (at most {MAX_SIZE:,} bytes, 8 EiB)")
    return max(1, size)
