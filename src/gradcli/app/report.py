"""The ``report`` service: one run as plain data for the HTML report (``gradcli report FILE -o report.html``).

:func:`build_report` turns a RunResult (run with the backward trace on) and its graph into plain records --
strings, numbers, lists -- that :mod:`.render.report_html` writes into one self-contained page:

* ``source``: the file's lines, and for each line the graph nodes it made (the page links them both ways);
* ``tensors``: the run's table (flags, values and gradients as PyTorch prints them) with each why-note;
* ``graph``: the nodes (name, kind, line, tensor names, module, saved tensors, inputs) and the SVG that
  Graphviz (or graphviz-pure) draws of them, with the node ids in its ``<title>`` elements (``n3``);
* ``trace``: the backward passes step by step (node, line, incoming and outgoing gradients, the leaf a
  gradient was accumulated into), each step naming its graph node when the final graph still holds it;
* ``error`` / ``warnings`` / ``stdout``: the file's own, with the error's related lines (both ends).

No rich here, and no live engine object leaves this module.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["build_report", "MAX_TRACE_STEPS"]

#: the most backward steps the page lists (a training loop makes thousands; the first ones tell the story)
MAX_TRACE_STEPS = 2000


def _text(t: Any) -> str:
    """A tensor's values in the table's short form, or ``None``."""
    from .render.human import short_values

    data = getattr(t, "_data", None)
    return "None" if data is None else short_values(data)


def _trace(result: Any, by_obj: dict[int, int]) -> tuple[list[dict], int]:
    """The backward steps as records (the run's --trace texts, each step and each outgoing gradient linked to
    its graph node when the final graph holds it), and how many steps were left out."""
    events = [ev for ev in (result.trace or ()) if isinstance(ev.get("step"), int)]
    objs = list(getattr(result, "trace_nodes", None) or ())
    steps = []
    for i, ev in enumerate(events[:MAX_TRACE_STEPS]):
        fn, nexts = objs[i] if i < len(objs) else (None, [])
        outs = []
        for k, text in enumerate(ev.get("grad_out") or ()):
            nx = nexts[k] if k < len(nexts) else None
            to_name, _, grad = str(text).removeprefix("-> ").partition(": ")
            outs.append({"to": by_obj.get(id(nx)) if nx is not None else None, "to_name": to_name, "grad": grad})
        into = ev.get("accumulated into")
        steps.append({
            "step": ev["step"],
            "node": ev.get("node"),
            "tensor": ev.get("tensor"),
            "node_id": by_obj.get(id(fn)) if fn is not None else None,
            "line": ev.get("line"),
            "grad_in": [str(g) for g in ev.get("grad_in_text") or ()],
            "grad_out": outs,
            "accumulated_into": into[:-5] if isinstance(into, str) and into.endswith(".grad") else into,
        })
    more = [ev for ev in (result.trace or ()) if not isinstance(ev.get("step"), int)]
    left = max(0, len(events) - MAX_TRACE_STEPS)
    for ev in more:  # the run's own cap: "N more nodes ran; --trace records the first 2,000"
        head = str(ev.get("node", "")).split(" ", 1)[0].replace(",", "")
        left += int(head) if head.isdigit() else 0
    return steps, left


def _error(err: Any) -> Optional[dict]:
    if err is None:
        return None
    return {"kind": err.kind, "message": err.message, "hint": err.hint or "", "line": err.line, "col": err.col,
            "related": [{"role": str(r.get("role") or "see"), "line": r.get("line"), "text": str(r.get("text") or "")}
                        for r in getattr(err, "related", None) or ()]}


def build_report(result: Any, graph: Any, svg: Optional[str], svg_problem: Optional[str] = None,
                 drawn: Any = None) -> dict:
    """The report of one run as plain data (see the module doc).

    result: a RunResult run with ``RunOptions.trace`` (its ``why`` notes computed, app/why.annotate);
    graph: its :class:`~gradcli.app.graph.Graph`; drawn: the graph as drawn when it differs (loops rolled,
    app/graph.roll_loops: a rolled node lists its iterations' steps); svg: Graphviz's drawing of ``drawn``
    (``<title>nID</title>`` per node), or None with ``svg_problem`` saying why.
    """
    drawn = graph if drawn is None else drawn
    from .records import dtype_name, grad_fn_name, raw_grad

    notes = getattr(result, "why", None) or {}
    tensors = []
    for name, t in result.tensors:
        note = notes.get(name)
        g = raw_grad(t)
        tensors.append({
            "name": name, "shape": [int(s) for s in t.shape], "dtype": dtype_name(t),
            "requires_grad": bool(t.requires_grad), "is_leaf": grad_fn_name(t) is None,
            "grad_fn": grad_fn_name(t), "retains_grad": bool(t.retains_grad),
            "data": _text(t), "grad": None if g is None else _text(g),
            "why": None if note is None else {"kind": note.kind, "message": note.message, "hint": note.hint,
                                              "line": note.line},
        })
    nodes = []
    for n in drawn.nodes:
        nodes.append({
            "id": n.id, "name": n.name, "kind": n.kind, "line": n.line, "names": list(n.names),
            "shape": n.shape, "module": n.module, "root": n.id in graph.roots,
            "saved": [{"name": s.name, "shape": s.shape, "freed": bool(s.freed)} for s in n.saved],
            "next": [c for c, _ in n.next],
            "repeat": n.repeat, "loop_line": n.loop_line,
        })
    lines = result.source.splitlines()
    made: dict[int, list[int]] = {}
    for n in nodes:
        if n["line"] is not None:
            made.setdefault(n["line"], []).append(n["id"])
    by_obj = dict(graph.node_ids)
    if drawn is not graph and drawn.rolled_from:
        by_obj = {k: drawn.rolled_from.get(v, v) for k, v in by_obj.items()}
    steps, left = _trace(result, by_obj)
    return {
        "file": result.file,
        "ok": bool(result.ok),
        "source": [{"line": i, "text": text, "nodes": made.get(i, [])} for i, text in enumerate(lines, 1)],
        "stdout": result.stdout,
        "tensors": tensors,
        "graph": {"nodes": nodes, "roots": list(drawn.roots), "notes": list(drawn.notes)},
        "svg": svg,
        "svg_problem": svg_problem,
        "trace": steps,
        "trace_left_out": left,
        "error": _error(result.error),
        "warnings": [{"kind": w.kind, "line": w.line, "message": w.message} for w in result.warnings],
        "forward_nonfinite": list(getattr(result, "forward_nonfinite", None) or []),
    }
