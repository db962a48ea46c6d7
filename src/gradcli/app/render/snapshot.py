"""Rich output of ``--expect-snapshot``: a table of the differences of the run from the snapshot."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

__all__ = ["snapshot_table", "snapshot_verdict"]


def snapshot_table(check: Any) -> Table:
    table = Table(title=f"differences from snapshot {check.path}", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("tensor", style="bold cyan", no_wrap=True)
    table.add_column("field", no_wrap=True)
    table.add_column("this run", style="red", overflow="fold")
    table.add_column("snapshot", style="green", overflow="fold")
    table.add_column("detail", style="dim", overflow="fold")
    for d in check.differences:
        detail = (d.detail or "").replace("in gradcli", "in this run").replace("in PyTorch", "in the snapshot")
        detail = detail.replace("gradcli:", "this run:").replace("PyTorch:", "snapshot:")
        table.add_row(Text(d.tensor or "—"), Text(d.field), Text(d.gradcli), Text(d.pytorch), Text(detail))
    return table


def snapshot_verdict(check: Any) -> Text:
    if check.ok:
        return Text(f"snapshot {check.path}: the run matches", style="bold green")
    n = len(check.differences)
    return Text(f"snapshot {check.path}: {n} difference{'s' if n != 1 else ''}", style="bold red")
