"""Rich output of ``gradcli lint``: one block per finding (position, kind, will/may, message, source, hint)."""

from __future__ import annotations

from typing import Any

from rich.padding import Padding
from rich.text import Text

from .panels import source_snippet

__all__ = ["render_lint"]


def render_lint(result: Any, source: str, out: Any) -> None:
    if result.error is not None:
        from types import SimpleNamespace

        from .panels import error_panel

        e = result.error
        rec = SimpleNamespace(kind=e.kind, message=e.message, hint=e.hint or "", line=e.line, col=e.col,
                              source_line=None, frames=[], related=[], problems=[])
        out.print(error_panel(rec, result.file, source))
        out.print(Text(f"lint: {result.file} could not be checked", style="bold red"))
        return
    for f in result.findings:
        head = Text()
        head.append(f"{result.file}:{f.line}:{f.col + 1}", style="bold")
        head.append("  ")
        head.append(f.kind, style="bold magenta" if f.certain else "magenta")
        head.append("  ")
        head.append("will fail" if f.certain and f.expect and "error" in f.expect else
                    ("will warn" if f.certain and f.expect and "warning" in f.expect else
                     ("certain" if f.certain else "may")), style="red" if f.certain else "yellow")
        out.print(head)
        out.print(Padding(Text(f.message), (0, 0, 0, 2)))
        out.print(source_snippet(result.file, source, f.line, f.col, style="bold yellow"))
        for r in f.related:
            if r.get("line") is not None and r.get("line") != f.line:
                out.print(source_snippet(result.file, source, r["line"], r.get("col"), label=r.get("role", "see"),
                                         style="blue"))
                if r.get("text"):
                    out.print(Padding(Text(str(r["text"]), style="dim"), (0, 0, 0, 6)))
        out.print(Padding(Text("hint: ", style="bold green") + Text(f.hint), (0, 0, 0, 2)))
        out.print(Text(""))
    n = len(result.findings)
    sure = sum(1 for f in result.findings if f.certain)
    if n == 0:
        out.print(Text(f"lint: {result.file}: no autograd mistakes found", style="bold green"))
    else:
        out.print(Text(f"lint: {n} finding{'s' if n != 1 else ''} ({sure} certain, {n - sure} may)",
                       style="bold red"))
