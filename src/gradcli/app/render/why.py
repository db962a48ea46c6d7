"""Rich output of the explainers: why-notes (``run``'s "why no gradient" table, ``gradcli why``'s
panel) and the error story shown with ``--trace`` (the related lines of the error, as a table).

User text (source lines, names, messages quoting them) always goes through
:class:`rich.text.Text`, never markup.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .panels import source_snippet

__all__ = ["why_table", "why_panel", "story_table", "why_title"]


def why_title(name: str, note: Any) -> str:
    grad = getattr(note, "grad", "None")
    if grad in ("NaN", "inf"):
        return f"why does {name}.grad hold {grad}?"
    what = "all zeros" if grad == "zeros" else "None"
    return f"why is {name}.grad {what}?"


def _table_title(rows: list) -> str:
    """"why no gradient", or with NaN/inf notes among the rows, a title that says so."""
    bad = any(r[1] in ("NaN", "inf") or "NaN" in r[1].split("/") or "inf" in r[1].split("/") for r in rows)
    good = any(any(g in ("None", "zeros") for g in r[1].split("/")) for r in rows)
    if not bad:
        return "why no gradient"
    return "why no gradient, or a NaN/inf one" if good else "why a NaN/inf gradient"


#: the explanation column is at least this wide in the table form (else the stacked form)
_MIN_EXPLANATION = 36


def why_table(notes: dict, tensors: Iterable[tuple[str, Any]], width: Optional[int] = None) -> Optional[Any]:
    """One row per reason a tensor's gradient is None or zero -- several tensors with the same reason share
    a row, listing their names and lines -- with its explanation and hint.  At a ``width`` too narrow for
    a readable explanation column, the same rows as blocks (reason first, explanation under it)."""
    from ..why import GROUP_EXPLANATION, group_notes, line_list

    groups = group_notes(notes, [name for name, _ in tensors])
    if not groups:
        return None
    rows = []
    for kind, items in groups:
        grads = sorted({note.grad for _, note in items})
        if len(items) == 1:
            name, note = items[0]
            rows.append((name, note.grad, kind, line_list([note.line]), note.message, note.hint))
        else:
            hints = {note.hint for _, note in items}
            rows.append((", ".join(n for n, _ in items), "/".join(grads), kind,
                         line_list([note.line for _, note in items]), GROUP_EXPLANATION.get(kind, items[0][1].message),
                         hints.pop() if len(hints) == 1 else ""))
    longest = max(len(n) for n, _ in tensors)
    fixed = max(4, min(longest, 24)) + 6 + max(len(r[2]) for r in rows) + max(4, max(len(r[3]) for r in rows)) + 4
    if width is not None and width - fixed < _MIN_EXPLANATION:
        return _why_blocks(rows, width)
    table = Table(title=_table_title(rows), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("name", style="bold cyan", overflow="fold", min_width=min(longest, 24), max_width=max(24, longest))
    table.add_column("grad", no_wrap=True)
    table.add_column("reason", style="magenta", no_wrap=True)
    table.add_column("line", justify="right", no_wrap=False)
    table.add_column("explanation", overflow="fold")
    for name, grad, kind, lines, message, hint in rows:
        text = Text(message)
        if hint:
            text.append(" hint: ", style="bold green")
            text.append(hint, style="dim")
        table.add_row(Text(name), Text(grad, style="dim"), Text(kind), Text(lines), text)
    return table


def _why_blocks(rows: list, width: int) -> Text:
    """The "why no gradient" rows as blocks, for a narrow console."""
    from .stacked import wrap_words

    out = Text()
    out.append(_table_title(rows) + "\n", style="italic")
    for name, grad, kind, lines, message, hint in rows:
        head = [(name, "bold cyan"), (f"  {grad}", "dim"), (f"  {kind}", "magenta")]
        if lines:
            head.append((f"  line{'s' if ',' in lines or '-' in lines else ''} {lines}", ""))
        for i, line in enumerate(wrap_words(head, width, width - 3)):
            out.append("   " if i else "")
            for text, style in line:
                out.append(text, style=style)
            out.append("\n")
        body = [(message, "")] + ([(" hint:", "bold green"), (" " + hint, "dim")] if hint else [])
        for line in wrap_words(body, width - 3, width - 3):
            out.append("   ")
            for text, style in line:
                out.append(text, style=style)
            out.append("\n")
    out.rstrip()
    return out


def _related(file: str, source: str, related: Iterable[dict]) -> list[Any]:
    parts: list[Any] = []
    for rel in related or ():
        role = str(rel.get("role") or "see")
        line, col = rel.get("line"), rel.get("col")
        text = rel.get("text") or ""
        if line is None:
            parts.append(Text(f"  {role}: ", style="blue") + Text(str(text)))
            continue
        parts.append(source_snippet(file, source, line, col, label=role, style="blue"))
        if text:
            parts.append(Text("      " + str(text), style="dim"))
    return parts


def why_panel(name: str, note: Any, file: str, source: str) -> Panel:
    """``gradcli why FILE NAME``: the note with its line, the related lines and the hint."""
    body: list[Any] = [Text(note.message)]
    if note.line is not None:
        body.append(Text(""))
        body.append(source_snippet(file, source, note.line, note.col, style="bold yellow"))
    others = [r for r in note.related if (r.get("line"), r.get("col")) != (note.line, note.col)]
    if others:
        body.append(Text(""))
        body.extend(_related(file, source, others))
    if note.hint:
        body.append(Text(""))
        body.append(Text("hint: ", style="bold green") + Text(note.hint))
    return Panel(Group(*body), title=Text(f"{why_title(name, note)}  ({note.kind})", style="bold yellow"),
                 title_align="left", border_style="yellow", expand=True)


def story_table(err: Any, source: str) -> Optional[Table]:
    """``--trace`` with an error that has related lines: the error's story, one row per line."""
    related = list(getattr(err, "related", None) or [])
    if not related:
        return None
    lines = (source or "").splitlines()
    table = Table(title=f"error story: {err.kind}", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("role", style="blue", no_wrap=True)
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("source", overflow="fold")
    table.add_column("what happened", overflow="fold")
    for rel in related:
        line = rel.get("line")
        src = lines[line - 1].strip() if isinstance(line, int) and 1 <= line <= len(lines) else ""
        table.add_row(Text(str(rel.get("role", ""))), Text("" if line is None else str(line)), Text(src),
                      Text(str(rel.get("text") or "")))
    if err.line is not None:
        src = lines[err.line - 1].strip() if 1 <= err.line <= len(lines) else ""
        table.add_row(Text("error"), Text(str(err.line)), Text(src), Text(err.kind), style="bold")
    return table
