"""Human output of ``gradcli compare``: one table row per disagreement (tensor, field, gradcli, PyTorch).

An identical run gets a one-line verdict; a PyTorch side that did not run
(not installed is exit 2 before this; a crash, a timeout, a file outside the
language) gets a note instead of a table; one that compare's walls stopped gets
its note above the table.  User text is always a
:class:`rich.text.Text`, never markup.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

__all__ = ["render_compare", "difference_table"]

#: cell text longer than this is cut (the --json output has everything)
MAX_CELL = 120


def _cell(text: str, style: str = "") -> Text:
    if len(text) > MAX_CELL:
        text = text[: MAX_CELL - 3] + "..."
    return Text(text, style=style)


def difference_table(differences: list) -> Table:
    """The differences as a rich table: tensor, field, gradcli, PyTorch."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title_justify="left")
    table.add_column("tensor", style="bold cyan", overflow="fold", min_width=6, max_width=16)
    table.add_column("field", overflow="fold", min_width=5, max_width=24)
    table.add_column("gradcli", style="red", overflow="fold", ratio=1)
    table.add_column("PyTorch", style="green", overflow="fold", ratio=1)
    for d in differences:
        field = Text(d.field)
        if d.detail:
            field.append("\n" + d.detail[:MAX_CELL], style="dim")  # e.g. "3 of 6 elements differ"
        table.add_row(Text(d.tensor or "-", style="bold cyan" if d.tensor else "dim"), field,
                      _cell(d.gradcli), _cell(d.pytorch))
    return table


def render_compare(comparison: Any, out: Any) -> None:
    """Print the comparison of one file: the file's own error first (its panel, when it failed in gradcli),
    a verdict line, then the table of differences (or a note)."""
    name = comparison.file
    run = getattr(comparison, "run", None)
    if run is not None and run.error is not None:
        from .panels import error_panel

        out.print(error_panel(run.error, run.file, run.source))
    ref = getattr(comparison, "reference", None) or {}
    if ref:
        out.print(Text(f"reference: PyTorch {ref.get('torch', '?')}, CPU capability {ref.get('cpu_capability', '?')}",
                       style="dim"), soft_wrap=True)
    if comparison.pytorch is None:
        out.print(Text("not compared: ", style="bold yellow") + Text(f"{name}: {comparison.note}"), soft_wrap=True)
        return
    n_tensors = len(comparison.pytorch.get("tensors", []))
    if comparison.identical:
        err = comparison.pytorch.get("error")
        how = "" if not err else f": both fail with {err['kind']}" + (
            f" at line {err['line']}" if err.get("line") else "")
        out.print(Text("identical: ", style="bold green") + Text(
            f"{name} behaves in gradcli exactly as in PyTorch (ok, error, warnings, printed output and "
            f"{n_tensors} tensor{'s' if n_tensors != 1 else ''}){how}"), soft_wrap=True)
        return
    if comparison.note:  # the walls stopped the PyTorch side: say so before the table
        out.print(Text("PyTorch side stopped: ", style="bold yellow") + Text(comparison.note), soft_wrap=True)
    n = len(comparison.differences)
    out.print(Text(f"{n} difference{'s' if n != 1 else ''}", style="bold red")
              + Text(f" between gradcli and PyTorch on {name}:"), soft_wrap=True)
    out.print(difference_table(comparison.differences))
