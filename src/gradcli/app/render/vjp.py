"""Rich output of the VJP view (``gradcli run FILE --explain-vjp``), see :mod:`gradcli.app.vjp`."""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

__all__ = ["vjp_panel", "matrix_text"]


def matrix_text(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a), precision=4, separator=", ", max_line_width=96, suppress_small=True)


def _shape(s: tuple) -> str:
    return "[" + ", ".join(str(int(d)) for d in s) + "]"


def _labelled(label: str, value: str) -> Text:
    """``label`` then ``value``, the value's later lines (a matrix) indented under its first."""
    return Text(label + value.replace("\n", "\n" + " " * len(label)))


def vjp_panel(view: Any, file: str) -> Panel:
    root = view.root or "the root"
    where = f" at {file}:{view.line}" if view.line is not None else " (the backward gradcli ran after the file)"
    body: list[Any] = [
        Text(f"{root}.backward(gradient=v){where}: {root} has shape {_shape(view.root_shape)}, so backward "
             f"computes the vector-Jacobian product v^T J for each input x, with J = d{root}/dx "
             f"({int(np.prod(view.root_shape))} rows, one per element of {root}; one column per element of x), "
             "and adds it into x.grad."),
        Text(""),
        Text("v = ", style="bold") + Text(matrix_text(view.v).replace("\n", "\n    ")),
    ]
    if view.note:
        body.append(Text(view.note, style="dim"))
    for inp in view.inputs:
        x = inp.name or "x"
        body.append(Text(""))
        body.append(Text(f"input {x}  shape {_shape(inp.shape)}", style="bold cyan"))
        if inp.jacobian is not None:
            body.append(Text(f"J = d{root}/d{x}  ({inp.jacobian.shape[0]} x {inp.jacobian.shape[1]}):"))
            body.append(Text(matrix_text(inp.jacobian)))
        width = len(f"landed in {x}.grad")  # the two results one above the other, "=" aligned
        if inp.vjp is not None:
            body.append(_labelled("v^T J".ljust(width) + " = ", matrix_text(inp.vjp)))
        landed = "None (nothing landed)" if inp.landed is None else matrix_text(inp.landed)
        body.append(_labelled(f"landed in {x}.grad = ", landed))
        if getattr(inp, "held", None) is not None and inp.now is not None:  # .grad accumulates
            body.append(Text(f"(added to the {matrix_text(inp.held)} {x}.grad already held: {x}.grad is now "
                             f"{matrix_text(inp.now)})", style="dim"))
        if inp.matches is True:
            body.append(Text("v^T J is exactly what landed in .grad", style="bold green"))
        elif inp.matches is False:
            body.append(Text("v^T J differs from what landed in .grad (a hook changed the gradient?)",
                             style="bold red"))
    return Panel(Group(*body), title=Text("vector-Jacobian product", style="bold"), title_align="left",
                 expand=True)
