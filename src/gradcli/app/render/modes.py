"""Rich output of ``gradcli modes``: tensors down, modes across, each cell the flags and the gradient;
cells that differ from the file as written are marked ``*`` (and highlighted on a terminal).  When that
table is wider than the console, the same facts one row per (tensor, mode) instead, so that no mode's
name or value is folded into unreadable pieces."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .human import short_values

__all__ = ["modes_table", "modes_rows", "render_modes"]


def _cell(state: Any, changed: bool) -> Text:
    if state is None:
        text = Text("(not bound)", style="dim")
    else:
        grad = "None" if state.grad is None else short_values(state.grad)
        text = Text(state.flags()) + Text("\n" + grad)  # the legend says: flags, then .grad
    if changed:
        return Text("* ", style="bold yellow") + Text(text.plain, style="bold yellow")
    return text


def modes_table(report: Any, pad: int = 1) -> Table:
    table = Table(title=f"{report.file}: `{report.target}` (line{'s' if len(report.lines) > 1 else ''} "
                        f"{', '.join(map(str, report.lines))}) under each grad off-switch",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, show_lines=True,
                  padding=(0, pad, 0, 0))
    table.add_column("tensor", style="bold cyan", no_wrap=True)
    for r in report.runs:  # "set_grad_enabled\n(False)": a narrow column breaks the name where it reads well
        table.add_column(r.mode.replace("(False)", "\n(False)"), overflow="fold")
    for name in report.names:
        row: list[Any] = [Text(name)]
        for i, r in enumerate(report.runs):
            row.append(_cell(r.tensors.get(name), i > 0 and report.differs(r, name)))
        table.add_row(*row)
    outcome: list[Any] = [Text("outcome")]
    base = report.runs[0].error
    for i, r in enumerate(report.runs):
        # the error kind is named under the table (failures): a kind like non_leaf_requires_grad would make
        # its column the widest of all
        t = "ok" if r.error is None else "failed" + (f"\nline {r.error[1]}" if r.error[1] else "")
        if i > 0 and r.error != base:
            outcome.append(Text("* " + t, style="bold yellow", overflow="fold"))
        else:
            outcome.append(Text(t, style="green" if r.error is None else "red"))
    table.add_row(*outcome)
    return table


def _outcome(r: Any) -> str:
    return "ok" if r.error is None else f"{r.error[0]}" + (f" at line {r.error[1]}" if r.error[1] else "")


def modes_rows(report: Any) -> Table:
    """The narrow layout: one row per tensor and mode (flags, gradient), then one per mode's outcome."""
    table = Table(title=f"{report.file}: `{report.target}` (line{'s' if len(report.lines) > 1 else ''} "
                        f"{', '.join(map(str, report.lines))}) under each grad off-switch",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  padding=(0, 1, 0, 0))
    table.add_column("tensor", style="bold cyan", no_wrap=True)
    table.add_column("mode", no_wrap=True)
    table.add_column("flags", no_wrap=True)
    table.add_column("grad", overflow="fold")
    for name in report.names:
        for i, r in enumerate(report.runs):
            state = r.tensors.get(name)
            changed = i > 0 and report.differs(r, name)
            style = "bold yellow" if changed else ""
            flags = "(not bound)" if state is None else state.flags()
            grad = "" if state is None else ("None" if state.grad is None else short_values(state.grad))
            table.add_row(Text(name if i == 0 else ""), Text(r.mode, style=style),
                          Text(("* " if changed else "") + flags, style=style), Text(grad, style=style),
                          end_section=i == len(report.runs) - 1)
    base = report.runs[0].error
    for i, r in enumerate(report.runs):
        changed = i > 0 and r.error != base
        style = "bold yellow" if changed else ("green" if r.error is None else "red")
        table.add_row(Text("outcome" if i == 0 else ""), Text(r.mode, style="bold yellow" if changed else ""),
                      Text("*" if changed else "", style=style), Text(_outcome(r), style=style))
    return table


def render_modes(report: Any, out: Any) -> None:
    """The file's own failure first (its error panel), then the table when there are variants to show."""
    failure = getattr(report, "failure", None)
    if failure is not None:
        from .panels import error_panel

        out.print(error_panel(failure.error, failure.file, failure.source))
        if len(report.runs) < 2:
            out.print(Text(f"failed: {_outcome(report.runs[0])}; the grad off-switches were not tried",
                           style="bold red"))
            return
    fits = False
    for pad in (1, 0):  # side by side, if need be with one space less between the columns
        wide = modes_table(report, pad)
        fits = Measurement.get(out, out.options.update_width(100_000), wide).maximum <= out.width
        if fits:
            break
    out.print(wide if fits else modes_rows(report))
    if fits:  # the side-by-side table says only "failed": the kind and line of each failure
        base = report.runs[0].error
        for i, r in enumerate(report.runs):
            if r.error is not None:
                mark = "* " if i > 0 and r.error != base else ""
                out.print(Text(f"{mark}{r.mode}: failed with {_outcome(r)}",
                               style="bold yellow" if mark else "red"))
    out.print(Text("each cell: the tensor's flags, then its .grad; * differs from the file as written; "
                   "rg = requires_grad; a grad_fn name = a non-leaf", style="dim"))
    from ..modes import SUMMARY

    shown = [r.mode for r in report.runs[1:] if r.mode in SUMMARY]
    if shown:
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for mode in shown:
            grid.add_row(Text(f"  {mode}", style="bold"), Text(SUMMARY[mode]))
        out.print(Text("what each switch does:"))
        out.print(grid)
