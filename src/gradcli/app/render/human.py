"""Human output of ``gradcli run``: print output, the tensor table, trace, warnings, error.

Order (SPEC §3): what the file printed, exactly and first, written straight to
the output stream (never through rich, which would wrap or restyle it); then
a table of tensors; then the backward trace (``--trace``); then warnings and
the error as panels; then a one-line verdict.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

import numpy as np
from rich import box
from rich.table import Table
from rich.text import Text

from ..options import SHOW_COLUMNS
from ..records import dtype_name, grad_fn_name, raw_grad
from .panels import error_panel, warning_panel

__all__ = ["render_run", "tensor_table", "short_values", "trace_table", "nonfinite"]

#: tensors with at most this many elements are shown whole in the table
FULL_ELEMENTS = 24


def short_values(arr: Any, width: int = 60) -> str:
    """A compact, PyTorch-looking text of an array's values for a table cell, lines at most ``width`` wide
    (where the values allow: numpy breaks a row only between elements).

    Small tensors in full; big 1-D tensors as their first and last three
    values; bigger ones as ``min/max/mean`` with the element count.
    """
    a = np.asarray(arr)
    if a.size == 0:
        return "[]"
    kw = dict(precision=4, separator=", ", max_line_width=max(20, width))
    if a.size <= FULL_ELEMENTS:
        return np.array2string(a, threshold=FULL_ELEMENTS + 1, **kw)
    if a.ndim == 1:
        return np.array2string(a, threshold=0, edgeitems=3, **kw)
    f = a.astype(np.float64)
    return (f"{a.size} elements: min {np.min(f):.4g}, max {np.max(f):.4g}, "
            f"mean {np.mean(f):.4g}")


def _shape(t: Any) -> str:
    return "[" + ", ".join(str(int(s)) for s in t.shape) + "]"


def _flag(v: Any) -> Text:
    return Text("True", style="green") if v else Text("False", style="dim")


_HEADERS = {
    "requires_grad": "requires\ngrad",
    "is_leaf": "is\nleaf",
    "grad_fn": "grad_fn",
    "retains_grad": "retains\ngrad",
    "data": "data",
    "grad": "grad",
}


def _new_table(title: str) -> Table:
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                 padding=(0, 1, 0, 0), expand=False)


def _columns(show: frozenset[str]) -> list[str]:
    cols: list[str] = []
    for group in ("flags", "data", "grad"):
        if group in show:
            cols.extend(SHOW_COLUMNS[group])
    return [c for c in ("requires_grad", "is_leaf", "grad_fn", "retains_grad", "data", "grad") if c in cols]


def _cell_of(t: Any, c: str) -> Text:
    if c == "is_leaf":
        return _flag(grad_fn_name(t) is None)  # never raises (see records.grad_fn_name)
    if c in ("requires_grad", "retains_grad"):
        return _flag(getattr(t, c))
    if c == "grad_fn":
        fn = grad_fn_name(t)
        return Text("None", style="dim") if fn is None else Text(fn, style="magenta")
    if c == "data":
        return Text(short_values(t._data))
    g = raw_grad(t)
    if g is None:
        return Text("None", style="dim")
    bad = nonfinite(g._data)
    if bad:  # issue 8: NaN/inf in a gradient is flagged, whether or not the values shown include it
        return Text(short_values(g._data), style="red") + Text(f"  [{bad}!]", style="bold red")
    return Text(short_values(g._data), style="green")


def nonfinite(arr: Any) -> str:
    """'nan', 'inf' or 'nan, inf' when a floating array holds such values, else ''."""
    a = np.asarray(arr)
    if a.dtype.kind not in "fc" or a.size == 0 or np.isfinite(a).all():
        return ""
    kinds = [k for k, f in (("nan", np.isnan), ("inf", np.isinf)) if f(a).any()]
    return ", ".join(kinds)


def _build(title: str, tensors: list[tuple[str, Any]], order: list[str]) -> Table:
    table = _new_table(title)
    table.add_column("name", style="bold cyan", no_wrap=True)
    table.add_column("shape", no_wrap=True)
    table.add_column("dtype", no_wrap=True)
    for c in order:
        if c in ("data", "grad"):
            table.add_column(_HEADERS[c], overflow="fold", min_width=6)
        else:
            table.add_column(_HEADERS[c], no_wrap=True)
    for name, t in tensors:
        row: list[Any] = [Text(name), Text(_shape(t)), Text(dtype_name(t))]
        row.extend(_cell_of(t, c) for c in order)
        table.add_row(*row)
    return table


def tensor_table(tensors: Iterable[tuple[str, Any]], show: frozenset[str], width: Optional[int] = None) -> list[Any]:
    """The tensor table(s): name, shape, dtype, then the ``--show`` groups.

    One table when it fits ``width``; else the flags and the values in two tables when each fits; else
    (a narrow console) the stacked layout, one block per tensor (:mod:`.stacked`): a table squeezed below
    its width would cut names and grad_fns (``n…  sha…``), a block never does.
    """
    tensors = list(tensors)
    order = _columns(show)
    single = _build("tensors", tensors, order)
    if width is None or _natural_width(single) <= width:
        return [single]
    values = [c for c in order if c in ("data", "grad")]
    flags = [c for c in order if c not in ("data", "grad")]
    if values and flags:
        split = [_build("tensors", tensors, flags), _build("values", tensors, values)]
        if all(_natural_width(t) <= width for t in split):
            return split
    from .stacked import stacked_tensors

    return [stacked_tensors(tensors, show, width)]


def _natural_width(table: Table) -> int:
    from rich.console import Console

    probe = Console(width=10_000, file=None, color_system=None, markup=False, highlight=False)
    return probe.measure(table).maximum


def _cell(v: Any) -> Text:
    """A trace value: tensors and arrays abbreviated, sequences item by item, others as text."""
    if v is None:
        return Text("None", style="dim")
    data = getattr(v, "_data", None)
    if data is not None:
        return Text(short_values(data))
    if isinstance(v, np.ndarray):
        return Text(short_values(v))
    if isinstance(v, (list, tuple)):
        return Text("\n").join(_cell(x) for x in v) if v else Text("()")
    name = getattr(v, "name", None)
    if callable(name):
        try:
            return Text(str(name()))
        except Exception:  # pragma: no cover - defensive
            pass
    return Text(str(v))


_TRACE_FIELDS = (
    ("step", ("step", "index")),
    ("node", ("node", "name", "grad_fn")),
    ("tensor", ("tensor", "tensor_name", "var")),
    ("line", ("line",)),
    ("incoming gradient", ("grad_in_text", "grad_in", "incoming", "grad_output", "grad_outputs", "grads_in")),
    ("outgoing gradients", ("grads_out", "outgoing", "grad_inputs", "grad_input", "grad_out")),
    ("accumulated into", ("accumulated into",)),
    ("hooks run", ("hooks",)),
)


def _get(ev: Any, keys: tuple[str, ...]) -> tuple[bool, Any]:
    for k in keys:
        if isinstance(ev, dict):
            if k in ev:
                return True, ev[k]
        elif hasattr(ev, k):
            return True, getattr(ev, k)
    return False, None


def trace_table(trace: list[Any]) -> Table:
    """``--trace``: one row per node the backward pass ran, in order."""
    present = [(title, keys) for title, keys in _TRACE_FIELDS if any(_get(ev, keys)[0] for ev in trace)]
    table = Table(title="backward trace", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False)
    if not any(title == "step" for title, _ in present):
        table.add_column("step", justify="right", no_wrap=True)
    for title, _ in present:
        table.add_column(title, overflow="fold")
    for i, ev in enumerate(trace, 1):
        row: list[Any] = [] if any(title == "step" for title, _ in present) else [Text(str(i))]
        if not present:
            row.append(Text(str(ev)))
        for _, keys in present:
            found, v = _get(ev, keys)
            row.append(_cell(v) if found else Text(""))
        table.add_row(*row)
    if not present:
        table.add_column("event")
    return table


def _trace_text(v: Any) -> str:
    """A trace value as text: PyTorch's print of a tensor (the run formats them), items one per line."""
    if v is None:
        return "None"
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return "\n".join(_trace_text(x) for x in v) if v else "()"
    data = getattr(v, "_data", None)
    if data is not None:
        return short_values(data)
    return str(v)


def trace_view(trace: list[Any], width: Optional[int] = None) -> Any:
    """``--trace``: the table when it fits ``width`` without breaking a word, else one block per step
    (the node, then its gradients under it, wrapped only between tokens)."""
    table = trace_table(trace)
    if width is None or _natural_width(table) <= width:
        return table
    from .stacked import wrap_words

    present = [(title, keys) for title, keys in _TRACE_FIELDS if any(_get(ev, keys)[0] for ev in trace)]
    out = Text()
    out.append("backward trace\n", style="italic")
    labels = {"incoming gradient": "in", "outgoing gradients": "out", "accumulated into": "into",
              "hooks run": "hooks"}
    for i, ev in enumerate(trace, 1):
        head = [(str(_get(ev, ("step", "index"))[1] or i), "bold")]
        for title, keys in present:
            found, v = _get(ev, keys)
            if title in ("node", "tensor") and found and v is not None:
                head.append(("  " + str(v), "magenta" if title == "node" else "cyan"))
            elif title == "line" and found and v is not None:
                head.append((f"  line {v}", "dim"))
        for j, line in enumerate(wrap_words(head, width, width - 3)):
            out.append("   " if j else "")
            for text, style in line:
                out.append(text, style=style)
            out.append("\n")
        for title, keys in present:
            if title not in labels:
                continue
            found, v = _get(ev, keys)
            if not found or v in (None, [], ()):
                continue
            label = labels[title]
            pad = "   " + " " * (len(label) + 2)
            first = True
            for chunk in _trace_text(v).splitlines():
                room = width - len(pad)
                for k, line in enumerate(wrap_words([(chunk, "")], room, room - 2)):
                    out.append(("   " + label + "  ") if first else (pad + ("  " if k else "")),
                               style="dim" if first else "")
                    out.append("".join(t for t, _ in line))
                    out.append("\n")
                    first = False
    out.rstrip()
    return out


def render_run(result: Any, out: Any, *, show: Optional[frozenset[str]] = None, trace: bool = False,
               expect_error: Optional[str] = None) -> None:
    """Write the human report of a RunResult to the rich console ``out``."""
    if result.stdout:
        from .console import write_verbatim

        write_verbatim(out, result.stdout if result.stdout.endswith("\n") else result.stdout + "\n")
    show = frozenset(SHOW_COLUMNS) if show is None else show
    note = inputs_note(result)
    if note is not None:
        out.print(note)
    if result.tensors:
        for table in tensor_table(result.tensors, show, width=out.width):
            out.print(table)
    elif result.error is None or result.error.kind not in ("syntax", "unsupported"):
        out.print(Text("no tensors", style="dim"))
    notes = getattr(result, "why", None)  # issue 7: why-notes, when computed (gradcli.app.why.annotate)
    if notes and "why" in show:
        from .why import why_table

        why = why_table(notes, result.tensors, width=out.width)
        if why is not None:
            out.print(why)
    if trace:
        if result.trace:
            out.print(trace_view(result.trace, out.width))
        elif result.trace is None:
            out.print(Text("backward trace: not recorded by this version of the engine", style="dim"))
        else:
            out.print(Text("backward trace: no backward pass ran", style="dim"))
        if result.error is not None and getattr(result.error, "related", None):
            from .why import story_table  # issue 7: the error's related lines, in the trace

            story = story_table(result.error, result.source)
            if story is not None:
                out.print(story)
    origins = nonfinite_view(result, out.width)
    if origins is not None:
        out.print(origins)
    ran = backward_note(result)
    if ran is not None:
        out.print(ran)
    for w in result.warnings:
        out.print(warning_panel(w, result.file, result.source))
    if result.error is not None:
        out.print(error_panel(result.error, result.file, result.source))
    out.print(verdict(result, expect_error))


def nonfinite_view(result: Any, width: Optional[int] = None) -> Optional[Any]:
    """Anomaly mode's forward watch (``result.forward_nonfinite``): the first forward op that made a NaN and an
    inf, each with its line, the source and its inputs' values; one dim line when the watch found none; None
    when anomaly mode was never on."""
    origins = getattr(result, "forward_nonfinite", None)
    if origins is None:
        return None
    if not origins:
        return Text("anomaly mode: no forward op made a NaN or an inf", style="dim")
    err = getattr(result, "error", None)
    shown = {(r.get("role"), r.get("line")) for r in (getattr(err, "related", None) or ())}
    if all((("first NaN" if o["kind"] == "nan" else "first inf"), o["line"]) in shown for o in origins):
        return None  # the error panel names them, with their lines
    from ...autograd.anomaly import origin_text
    from .stacked import wrap_words

    room = max(20, (width or 80) - 11)
    out = Text()
    out.append("forward origin of NaN/inf", style="italic")
    out.append(" (anomaly mode)\n", style="dim")
    lines = result.source.splitlines()
    for o in origins:
        label = "first NaN" if o["kind"] == "nan" else "first inf"
        where = f"line {o['line']}" if o["line"] is not None else "after the file"
        out.append(f"  {label}  ", style="bold red")
        out.append(where + "\n", style="bold")
        code = lines[o["line"] - 1].strip() if o["line"] is not None and 0 < o["line"] <= len(lines) else ""
        if code:
            out.append("    " + code + "\n", style="yellow")
        for line in wrap_words([(origin_text(o), "")], room, room):
            out.append("    " + "".join(t for t, _ in line) + "\n")
    out.rstrip()
    return out


def inputs_note(result: Any) -> Optional[Text]:
    """``inputs: x = torch.tensor(1.0), bound by gradcli ...`` for the free inputs gradcli bound, else None."""
    free = [i for i in getattr(result, "inputs", None) or () if i.get("source") == "free"]
    if not free:
        return None
    names = [i["name"] for i in free]
    text = Text("inputs: ", style="bold")
    text.append(", ".join(f"{i['name']} = {i['text']}" for i in free))
    it = "it" if len(names) == 1 else "them"
    text.append(f", bound by gradcli: the file reads {_and(names)} but never assigns {it} "
                f"(--set NAME=VALUE gives another value)", style="dim")
    return text


def _and(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def backward_note(result: Any) -> Optional[Text]:
    """``backward: gradcli ran z.backward() after the file (...)``: what gradcli ran after the file, if anything."""
    bw = getattr(result, "backward", None)
    if not bw:
        return None
    from ..records import backward_record

    rec = backward_record(bw)
    text = Text("backward: ", style="bold")
    text.append(f"gradcli ran {rec['call']}")
    if rec["repeat"] > 1:
        text.append(f" {rec['repeat']} times")
    if rec["implicit"]:
        why = "the default: the last tensor assigned; the file calls no backward itself"
    else:
        why = f"--backward {rec['target']}"
    text.append(f" after the file ({why})", style="dim")
    return text


def verdict(result: Any, expect_error: Optional[str] = None) -> Text:
    """The last line: ok / failed, and whether ``--expect-error`` was met."""
    err = result.error
    got = None if err is None else err.kind
    where = "" if err is None or err.line is None else f" at line {err.line}"
    if expect_error is not None:
        if got == expect_error:
            return Text(f"ok: failed with {got}{where}, as --expect-error asked", style="bold green")
        if got is None:
            return Text(f"failed: expected error {expect_error}, but the run succeeded", style="bold red")
        return Text(f"failed: expected error {expect_error}, got {got}{where}", style="bold red")
    if err is None:
        return Text("ok", style="bold green")
    return Text(f"failed: {got}{where}", style="bold red")
