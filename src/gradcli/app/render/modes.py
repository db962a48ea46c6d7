"""Rich output of ``gradcli modes``: tensors down, modes across, each cell the flags and the gradient;
cells that differ from the file as written are marked ``*`` (and highlighted on a terminal)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from .human import short_values

__all__ = ["modes_table", "render_modes"]


def _cell(state: Any, changed: bool) -> Text:
    if state is None:
        text = Text("(not bound)", style="dim")
    else:
        grad = "None" if state.grad is None else short_values(state.grad)
        text = Text(state.flags()) + Text("\ngrad " + grad)
    if changed:
        return Text("* ", style="bold yellow") + Text(text.plain, style="bold yellow")
    return text


def modes_table(report: Any) -> Table:
    table = Table(title=f"{report.file}: `{report.target}` (line{'s' if len(report.lines) > 1 else ''} "
                        f"{', '.join(map(str, report.lines))}) under each grad off-switch",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, show_lines=True,
                  padding=(0, 1, 0, 0))
    table.add_column("tensor", style="bold cyan", no_wrap=True)
    for r in report.runs:
        table.add_column(r.mode, overflow="fold")
    for name in report.names:
        row: list[Any] = [Text(name)]
        for i, r in enumerate(report.runs):
            row.append(_cell(r.tensors.get(name), i > 0 and report.differs(r, name)))
        table.add_row(*row)
    outcome: list[Any] = [Text("outcome")]
    base = report.runs[0].error
    for i, r in enumerate(report.runs):
        t = "ok" if r.error is None else f"{r.error[0]}" + (f"\nat line {r.error[1]}" if r.error[1] else "")
        if i > 0 and r.error != base:
            outcome.append(Text("* " + t, style="bold yellow", overflow="fold"))
        else:
            outcome.append(Text(t, style="green" if r.error is None else "red"))
    table.add_row(*outcome)
    return table


def render_modes(report: Any, out: Any) -> None:
    out.print(modes_table(report))
    out.print(Text("* differs from the file as written; rg = requires_grad; a grad_fn name = a non-leaf",
                   style="dim"))
