"""Human output of ``gradcli check``: print output, the per-input table, the per-node table, verdict.

Order (SPEC §3): what the file printed (reference run), exactly and first; a
heading with the target and the tolerances; one row per input (max abs and
rel error, ok / mismatch); with ``--per-node`` one row per node in the order
the file made them and the first node whose rule is wrong, with its source
line; warnings and the file's error as panels; then a one-line verdict.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from rich import box
from rich.table import Table
from rich.text import Text

from .panels import error_panel, source_snippet, warning_panel

__all__ = ["fmt_error", "input_table", "node_table", "render_check", "verdict"]


def fmt_error(v: Optional[float]) -> str:
    """An error value for a table cell: 3 significant digits, '-' when there is none."""
    if v is None:
        return "-"
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return f"{v:.3g}"


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                 padding=(0, 1, 0, 0), expand=False)


def input_table(report: Any) -> Table:
    """One row per input: name, shape, max abs error, max rel error, ok / mismatch, note."""
    table = _table("inputs (leaves that require grad)")
    table.add_column("input", style="bold cyan", no_wrap=True)
    table.add_column("shape", no_wrap=True)
    table.add_column("max abs error", justify="right", no_wrap=True)
    table.add_column("max rel error", justify="right", no_wrap=True)
    table.add_column("result", no_wrap=True)
    for i in report.inputs:
        table.add_row(Text(i.name), Text("[" + ", ".join(str(d) for d in i.shape) + "]"),
                      Text(fmt_error(i.max_abs_error)), Text(fmt_error(i.max_rel_error)),
                      Text("ok", style="green") if i.ok else Text("mismatch", style="bold red"))
    return table


def _notes(items: list) -> Text:
    """'  NAME: note' lines under a table (notes are sentences: a column would squeeze the table)."""
    text = Text()
    for label, note in items:
        if note:
            text.append(f"  {label}: ", style="bold")
            text.append(note + "\n", style="dim")
    text.rstrip()
    return text


_STATUS = {
    "ok": ("ok", "green"),
    "wrong": ("wrong", "bold red"),
    "covered": ("covered", "dim"),
    "unchecked": ("not checked", "yellow"),
}


def node_table(nodes: list) -> Table:
    """--per-node: one row per node of the target's graph, in the order the file made them."""
    table = _table("nodes (each rule against finite differences of its forward)")
    table.add_column("node", style="magenta", no_wrap=True)
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("tensor", style="cyan", no_wrap=True)
    table.add_column("forward", no_wrap=True)
    table.add_column("max abs error", justify="right", no_wrap=True)
    table.add_column("max rel error", justify="right", no_wrap=True)
    table.add_column("result", no_wrap=True)
    for n in nodes:
        label, style = _STATUS.get(n.status, (n.status, ""))
        table.add_row(Text(n.name), Text("" if n.line is None else str(n.line)), Text(n.tensor or ""),
                      Text(n.op or ""), Text(fmt_error(n.max_abs_error)), Text(fmt_error(n.max_rel_error)),
                      Text(label, style=style))
    return table


def _heading(report: Any) -> Text:
    s = report.settings
    text = Text("gradient check of ", style="bold")
    text.append(report.target or "?", style="bold cyan")
    if report.target_line is not None and not (report.target or "").startswith("<"):
        text.append(f", backward at line {report.target_line}")
    text.append(f"  (float64, eps {s.eps:g}, atol {s.atol:g}, rtol {s.rtol:g})", style="dim")
    return text


def _first_wrong(report: Any) -> Text:
    node = report.first_wrong_node
    text = Text("first wrong rule: ", style="bold red")
    text.append(node.name, style="bold magenta")
    if node.line is not None:
        text.append(f" at line {node.line}")
    what = f"the backward of {node.op[:-len('.apply')]}" if node.custom and node.op else f"{node.name}'s rule"
    text.append(f": {what} disagrees with finite differences of its forward "
                f"(max abs error {fmt_error(node.max_abs_error)})")
    return text


def verdict(report: Any, expect_error: Optional[str] = None) -> Text:
    """The last line: ok / mismatch / the file failed."""
    err = report.run.error if report.run is not None else None
    if expect_error is not None:
        got = None if err is None else err.kind
        if got == expect_error:
            return Text(f"ok: failed with {got}, as --expect-error asked", style="bold green")
        return Text(f"failed: expected error {expect_error}, got {got or 'none'}", style="bold red")
    if err is not None and (getattr(err, "facts", None) or {}).get("check_estimate"):
        # check's own refusal before any rerun: the file itself ran clean
        return Text("failed: the reruns would take longer than the time limit; nothing was checked", style="bold red")
    if err is not None:
        where = "" if err.line is None else f" at line {err.line}"
        return Text(f"failed: the file failed with {err.kind}{where}; nothing was checked", style="bold red")
    bad = [i.name for i in report.inputs if not i.ok]
    wrong = [n for n in (report.nodes or ()) if n.status == "wrong"]
    if not bad and not wrong and not report.inputs and not any(n.status == "ok" for n in (report.nodes or ())):
        return Text("ok: nothing to compare (no leaf that requires grad takes part)", style="bold green")
    if not bad and not wrong:
        what = f"{len(report.inputs)} input{'s' if len(report.inputs) != 1 else ''}"
        if report.nodes is not None:
            what += " and every checked node"
        return Text(f"ok: analytic gradients match finite differences ({what})", style="bold green")
    parts = []
    if bad:
        parts.append(f"{', '.join(bad)} disagree{'s' if len(bad) == 1 else ''} with finite differences")
    if wrong:
        parts.append(f"{len(wrong)} node rule{'s' if len(wrong) != 1 else ''} wrong")
    return Text("mismatch: " + "; ".join(parts), style="bold red")


def render_check(report: Any, out: Any, expect_error: Optional[str] = None) -> None:
    """Write the human report of a CheckReport to the rich console ``out``."""
    run = report.run
    if run is not None and run.stdout:
        out.file.write(run.stdout)
        if not run.stdout.endswith("\n"):
            out.file.write("\n")
        out.file.flush()
    if run is not None and run.ok:
        out.print(_heading(report))
        if report.inputs:
            out.print(input_table(report))
            if any(i.note for i in report.inputs):
                out.print(_notes([(i.name, i.note) for i in report.inputs]))
        if report.nodes is not None:
            if report.nodes:
                out.print(node_table(report.nodes))
                if any(n.note for n in report.nodes):
                    out.print(_notes([(f"{n.name}" + (f" (line {n.line})" if n.line is not None else ""), n.note)
                                      for n in report.nodes]))
            if report.first_wrong_node is not None:
                out.print(_first_wrong(report))
                node = report.first_wrong_node
                if node.line is not None:
                    out.print(source_snippet(report.file, run.source, node.line, None, label="-->"))
            elif any(not i.ok for i in report.inputs) and report.nodes:
                out.print(Text("every checked node's rule agrees with finite differences: the difference comes "
                               "from outside the rules (a hook that changes gradients, an in-place update, a "
                               "node that could not be checked)", style="yellow"))
        for note in report.notes:
            out.print(Text(note, style="dim"))
    if run is not None:
        for w in run.warnings:
            out.print(warning_panel(w, run.file, run.source))
        if run.error is not None:
            out.print(error_panel(run.error, run.file, run.source))
    out.print(verdict(report, expect_error))
