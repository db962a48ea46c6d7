"""Human output of ``gradcli ops``: one table per family of operations."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

__all__ = ["render_ops"]


def render_ops(rows: list, out: Any) -> None:
    """Print the op rows (already sorted by family) as tables, one per family."""
    if not rows:
        out.print(Text("no operations are registered", style="dim"))
        return
    for group, items in groupby(rows, key=lambda r: r.group):
        items = list(items)
        table = Table(title=f"{group or 'other'} ({len(items)})", title_justify="left", box=box.SIMPLE_HEAD,
                      pad_edge=False, show_edge=False)
        table.add_column("op", style="bold cyan", no_wrap=True)
        table.add_column("spellings", overflow="fold")
        table.add_column("grad_fn", style="magenta", overflow="fold")
        table.add_column("derivative", overflow="fold")
        for r in items:
            if r.formula:
                formula = Text(r.formula)
            elif r.differentiable:
                formula = Text("(as its grad_fn)", style="dim")
            else:
                formula = Text("not differentiable", style="dim")
            table.add_row(Text(r.name), Text(", ".join(r.spellings)), Text("\n".join(r.nodes) or "-"), formula)
        out.print(table)
    out.print(Text(f"{len(rows)} operations", style="bold"))
