"""Rich panels for errors, warnings and invocation/internal problems.

A file's error is shown as: the kind in the title, gradcli's message, the
position ``file:line:col`` (1-based column, as editors count), the source line
with a caret under the column, the call chain and related positions when the
language layer gives them, and the hint.  Everything the user wrote (source
lines, names, messages that quote them) goes through :class:`rich.text.Text`,
never through markup.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from rich.console import Group
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

__all__ = ["error_panel", "warning_panel", "problem_panel", "source_snippet", "WARNING_HINTS"]

#: hints for the warning kinds of SPEC §4 (warnings carry no hint of their own)
WARNING_HINTS = {
    "non_leaf_grad": "Only leaves get .grad by default: call .retain_grad() on this tensor before backward "
    "(or pass --retain-grad NAME), or read the gradient of a leaf instead.",
    "create_graph_cycle": "Prefer torch.autograd.grad(..., create_graph=True), or set the leaves' .grad to None "
    "after use, to avoid the reference cycle.",
}


#: longest part of a source line a snippet shows (around the caret)
MAX_SOURCE_SHOWN = 240


def _char_col(line: str, col: int) -> int:
    """Python's col_offset counts UTF-8 bytes; the caret needs characters."""
    if line.isascii():
        return col
    return len(line.encode("utf-8")[:col].decode("utf-8", "ignore"))


def _source_line(source: str, line: Optional[int]) -> Optional[str]:
    if not line or line < 1:
        return None
    lines = source.splitlines()
    return lines[line - 1] if line <= len(lines) else None


def source_snippet(
    file: str, source: str, line: Optional[int], col: Optional[int], source_line: Optional[str] = None,
    *, label: str = "-->", style: str = "bold red",
) -> Text:
    """``--> file:line:col`` then the numbered source line and a caret under ``col``."""
    text = Text()
    if line is None:
        return text
    src = source_line if source_line is not None else _source_line(source, line)
    if src is not None:
        src = src.rstrip("\r\n")
    shown_col = None if col is None else (_char_col(src, col) if src is not None else col)
    where = f"{file}:{line}" + (f":{shown_col + 1}" if shown_col is not None else "")
    text.append(f"  {label} ", style="blue")
    text.append(where)
    if src is None:
        return text
    if len(src) > MAX_SOURCE_SHOWN:  # a very long line (up to the 1 MB file limit): the part around the column
        c0 = shown_col or 0
        start = max(0, min(c0 - MAX_SOURCE_SHOWN // 2, len(src) - MAX_SOURCE_SHOWN))
        end = start + MAX_SOURCE_SHOWN
        src = ("..." if start else "") + src[start:end] + ("..." if end < len(src) else "")
        if shown_col is not None:
            shown_col = shown_col - start + (3 if start else 0)
    num = str(line)
    gutter = " " * len(num)
    text.append("\n")
    text.append(f"  {num} | ", style="blue")
    text.append(src)
    if col is not None:
        c = min(shown_col if shown_col is not None else 0, len(src))
        # keep tabs so the caret lines up with the source in any tab width
        lead = "".join(ch if ch == "\t" else " " for ch in src[:c])
        text.append("\n")
        text.append(f"  {gutter} | ", style="blue")
        text.append(lead)
        text.append("^", style=style)
    return text


def _chain(file: str, source: str, frames: Iterable[tuple[int, int]], related: Iterable[dict]) -> list[Text]:
    parts: list[Text] = []
    frames = list(frames or ())
    # frames run outermost -> innermost; the innermost one is the error position itself
    for line, col in reversed(frames[:-1]):
        parts.append(source_snippet(file, source, line, col, label="called from", style="blue"))
    for rel in related or ():
        role = str(rel.get("role") or "see")
        line, col = rel.get("line"), rel.get("col")
        # issue 7: ``text`` says what happened at that line (indented under it); the source line is the file's
        text = rel.get("text")
        if line is None and text:
            parts.append(Padding(Text(f"{role}: ", style="blue") + Text(str(text)), (0, 0, 0, 2)))
            continue
        parts.append(source_snippet(file, source, line, col, label=role, style="blue"))
        if text:
            parts.append(Padding(Text(str(text), style="dim"), (0, 0, 0, 6)))
    return parts


def error_panel(err: Any, file: str, source: str) -> Panel:
    """The panel of the error that ended the run (an ErrorRecord)."""
    body: list[Any] = [Text(err.message)]
    if err.line is not None:
        body.append(Text(""))
        body.append(source_snippet(file, source, err.line, err.col, getattr(err, "source_line", None)))
    elif (getattr(err, "facts", None) or {}).get("limit") == "max_source_bytes":  # refused before parsing
        body.append(Text(""))
        body.append(Text("  raised before the file ran: gradcli read no further", style="blue"))
    else:
        body.append(Text(""))
        body.append(Text("  raised by the backward gradcli ran after the file", style="blue"))
    chain = _chain(file, source, getattr(err, "frames", ()), getattr(err, "related", ()))
    if chain:
        body.extend(chain)
    others = [p for p in (getattr(err, "problems", None) or [])
              if (p.get("line"), p.get("col"), p.get("message")) != (err.line, err.col, err.message)]
    if others:
        body.append(Text(""))
        body.append(Text(f"{len(others)} more problem{'s' if len(others) > 1 else ''} in the file:", style="bold"))
        for p in others:
            where = f"{file}:{p.get('line')}" if p.get("line") is not None else file
            body.append(Text(f"  {where}: ", style="blue") + Text(str(p.get("message", ""))))
    if err.hint:
        body.append(Text(""))
        body.append(Text("hint: ", style="bold green") + Text(err.hint))
    return Panel(
        Group(*body),
        title=Text(f"error: {err.kind}", style="bold red"),
        title_align="left",
        border_style="red",
        expand=True,
    )


def warning_panel(w: Any, file: str, source: str) -> Panel:
    """A warning (WarningRecord), with its line and the hint of its kind."""
    body: list[Any] = [Text(w.message)]
    if w.line is not None:
        body.append(Text(""))
        body.append(source_snippet(file, source, w.line, getattr(w, "col", None), getattr(w, "source_line", None),
                                   style="bold yellow"))
    hint = WARNING_HINTS.get(w.kind)
    if hint:
        body.append(Text(""))
        body.append(Text("hint: ", style="bold green") + Text(hint))
    return Panel(
        Group(*body),
        title=Text(f"warning: {w.kind}", style="bold yellow"),
        title_align="left",
        border_style="yellow",
        expand=True,
    )


def problem_panel(title: str, message: str, hint: str = "", *, style: str = "red", extra: Any = None) -> Panel:
    """A short panel for problems that are not the file's: usage, internal errors."""
    body: list[Any] = [Text(message)]
    if extra is not None:
        body.append(extra)
    if hint:
        body.append(Text(""))
        body.append(Text("hint: ", style="bold green") + Text(hint))
    return Panel(Group(*body), title=Text(title, style=f"bold {style}"), title_align="left",
                 border_style=style, expand=True)
