"""The stacked layout of ``gradcli run``'s tensors: one block per tensor, for consoles too narrow for the
table (issue 19).  A table squeezed below its width truncates names (``n…  sha…``); a block never does:

    y  [2, 3] float32  requires grad, MulBackward0, retains grad
       data  [[ 2.,  4.,  6.],
              [ 8., 10., 12.]]
       grad  [[3., 3., 3.],
              [3., 3., 3.]]

The first line is the name, shape, dtype and flags (``requires grad`` or ``no grad``; ``leaf`` or the
grad_fn of a non-leaf; ``retains grad``), wrapped between words under itself when it is wider than the
console; then the values (the ``--show`` groups), printed for the room that is left.
"""

from __future__ import annotations

from typing import Any, Iterable

from rich.text import Text

from ..records import dtype_name, grad_fn_name, raw_grad

__all__ = ["stacked_tensors", "flags_text", "wrap_words"]

_INDENT = "   "


def flags_text(t: Any) -> list[tuple[str, str]]:
    """(text, style) of a tensor's flags: ``requires grad, MulBackward0, retains grad``."""
    fn = grad_fn_name(t)
    out = [("requires grad" if t.requires_grad else "no grad", "green" if t.requires_grad else "dim")]
    out.append((fn, "magenta") if fn is not None else ("leaf", ""))
    if t.retains_grad:
        out.append(("retains grad", "green"))
    return out


def wrap_words(pieces: list[tuple[str, str]], first: int, rest: int) -> list[list[tuple[str, str]]]:
    """Pieces of (text, style) as lines: the first at most ``first`` characters wide, the others ``rest``,
    broken between words only (a word wider than its line gets a line of its own, whole)."""
    words: list[tuple[str, str]] = []
    for text, style in pieces:
        lead = len(text) - len(text.lstrip(" "))
        for i, w in enumerate(text.split()):
            words.append(((" " * lead if i == 0 else " ") + w, style))
    lines: list[list[tuple[str, str]]] = [[]]
    used, room = 0, first
    for w, style in words:
        if used and used + len(w) > room:
            lines.append([])
            w, used, room = w.lstrip(" "), 0, rest
        lines[-1].append((w, style))
        used += len(w)
    return lines


def _values_lines(label: str, text: str, style: str) -> Text:
    out = Text()
    pad = _INDENT + " " * (len(label) + 2)
    for i, line in enumerate(text.splitlines() or [""]):
        out.append(_INDENT + label + "  " if i == 0 else pad, style="dim" if i == 0 else "")
        out.append(line, style=style)
        out.append("\n")
    return out


def stacked_tensors(tensors: Iterable[tuple[str, Any]], show: frozenset, width: int) -> Text:
    """The tensors as blocks (see the module doc) for a console ``width`` columns wide."""
    from .human import nonfinite, short_values

    out = Text()
    out.append("tensors\n", style="italic")
    room = max(20, width - len(_INDENT) - len("data  "))
    for name, t in tensors:
        shape = "[" + ", ".join(str(int(s)) for s in t.shape) + "]"
        pieces = [(name, "bold cyan"), ("  " + shape, ""), (" " + dtype_name(t), "")]
        if "flags" in show:
            flags = flags_text(t)
            pieces.append(("  " + flags[0][0] + ",", flags[0][1]))
            for i, (text, style) in enumerate(flags[1:]):
                pieces.append((" " + text + ("," if i < len(flags) - 2 else ""), style))
            if pieces[-1][0].endswith(","):
                pieces[-1] = (pieces[-1][0][:-1], pieces[-1][1])
        for i, line in enumerate(wrap_words(pieces, width, width - len(_INDENT))):
            if i:
                out.append(_INDENT)
            for text, style in line:
                out.append(text, style=style)
            out.append("\n")
        if "data" in show:
            out.append_text(_values_lines("data", short_values(t._data, width=room), ""))
        if "grad" in show:
            g = raw_grad(t)
            if g is None:
                out.append_text(_values_lines("grad", "None", "dim"))
            else:
                bad = nonfinite(g._data)
                text = short_values(g._data, width=room) + (f"  [{bad}!]" if bad else "")
                out.append_text(_values_lines("grad", text, "red" if bad else "green"))
    out.rstrip()
    return out
