"""Text forms of a :class:`~gradcli.app.graph.Graph`: tree (plain or rich), DOT, Mermaid.

All walks use an explicit stack (no recursion).  In the tree a node reached a
second time (a DAG shares nodes: ``y = (a + b) * a``) is printed once in full
and then as ``(see above)``.  DOT and Mermaid draw edges the way data flowed
forward (from an input's node to the node that used it), as torchviz does,
so leaves are on top and the root at the bottom.
"""

from __future__ import annotations

from typing import Any, Optional

from rich.text import Text

__all__ = ["to_tree_rich", "to_tree_text", "to_dot", "to_mermaid", "node_caption", "saved_caption",
           "value_lines", "format_summary"]


def _shape(shape: Optional[list[int]]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]" if shape is not None else ""


def node_caption(node: Any) -> str:
    """'y, line 3' / 'x [2]' / 'line 5' / 'model.fc1, line 9': the file-facing part of a node's label."""
    parts = []
    if node.names:
        parts.append(", ".join(node.names))
    if node.kind == "accumulate" and node.shape is not None:
        parts[-1:] = [(parts[-1] + " " if parts else "") + _shape(node.shape)]
    # an AccumulateGrad node is made where its leaf is first used, not where the leaf was made:
    # its line would mislead, so only op nodes show theirs (JSON keeps every node's line)
    module = getattr(node, "module", None)
    if module:
        parts.append(module)  # the nn.Module call that made it (SPEC §2b)
    if node.line is not None and node.kind != "accumulate":
        parts.append(f"line {node.line}")
    return ", ".join(parts)


def _fmt_num(v: Any) -> str:
    if isinstance(v, str):  # "nan", "inf", "-inf"
        return v
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    return f"{v:.4g}"


def format_summary(s: Optional[dict], *, with_type: bool = True) -> str:
    """'float32 [2] = [3, 4]' / 'float32 [100] min -2.1, max 2.3, mean 0.01' (autograd/values.py's summary);
    ``with_type``: lead with dtype and shape."""
    if s is None:
        return "None"
    head = f"{s['dtype']} {_shape(s['shape'])}" if with_type else ""
    if "data" in s:
        body = "[" + ", ".join(_fmt_num(v) for v in s["data"]) + "]" if s["shape"] else _fmt_num(s["data"][0])
        return f"{head} = {body}" if head else body
    if "min" in s:
        body = f"min {_fmt_num(s['min'])}, max {_fmt_num(s['max'])}, mean {_fmt_num(s['mean'])}"
        return f"{head} {body}" if head else body
    return head or "(no summary)"


def value_lines(node: Any) -> list[str]:
    """--values: the node's value and gradient lines, e.g. ['value float32 [2] = [3, 4]', 'grad [1, 1]'];
    a leaf's reads '.grad ...'; [] when the graph was built without --values."""
    lines = []
    if node.value is not None:
        lines.append("value " + format_summary(node.value))
    else:
        lines.append("value not recorded")
    if node.kind == "accumulate":
        lines.append(".grad " + (format_summary(node.grad, with_type=False) if node.grad is not None else "None"))
    elif node.grad is not None:
        lines.append("grad " + format_summary(node.grad, with_type=False))
    elif node.passes:
        lines.append("grad None (no gradient arrived)")
    else:
        lines.append("grad - (no backward ran this node)")
    if node.passes > 1:
        lines[-1] += f" (after {node.passes} passes)" if node.kind == "accumulate" else \
            f" (last of {node.passes} passes)"
    return lines


def saved_caption(node: Any) -> str:
    """'saved: self [2], other [2] (freed)' or '' when the node saved no tensor; a value a checkpoint
    dropped reads 'self [2] dropped (recomputed in backward)'."""
    if not node.saved:
        return ""
    items = []
    for s in node.saved:
        if s.freed:
            items.append(f"{s.name} (freed)")
        elif getattr(s, "dropped", False):
            items.append(f"{s.name} {_shape(s.shape)} dropped (recomputed in backward)".replace("  ", " "))
        else:
            items.append(f"{s.name} {_shape(s.shape)}".rstrip())
    return "saved: " + ", ".join(items)


def to_tree_rich(graph: Any, *, show_saved: bool = False, width: Optional[int] = None) -> Text:
    """The graph as an indented tree, one block per root, styled for a terminal ``width`` columns wide:
    true depth at any length (straight chains folded with a count, or the compact ``depth: node`` form,
    beyond what fits), long labels wrapped under themselves (:mod:`.tree`)."""
    from .tree import render_tree

    out = render_tree(graph, show_saved=show_saved, width=width)
    for note in graph.notes:
        out.append(note + "\n", style="dim")
    if not graph.roots and not graph.notes:
        out.append("(empty graph)\n", style="dim")
    out.rstrip()
    return out


def to_tree_text(graph: Any, *, show_saved: bool = False) -> str:
    """The tree as plain text (for ``--output graph.txt``): every node on its own line; past
    :data:`FILE_WIDTH` columns of indentation, the compact ``depth: node`` form (linear in size)."""
    from .tree import render_tree

    text = render_tree(graph, show_saved=show_saved, width=FILE_WIDTH, fold=False).plain
    rest = "".join(note + "\n" for note in graph.notes)
    if not graph.roots and not graph.notes:
        rest += "(empty graph)\n"
    return (text + rest).rstrip("\n") + "\n"


#: the widest a tree written to a file gets before it switches to the compact form
FILE_WIDTH = 200


def _dot_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(graph: Any, *, show_saved: bool = False) -> str:
    """Graphviz DOT text: nodes labelled with grad_fn name, file names and lines."""
    lines = [
        'digraph "gradcli" {',
        '  graph [rankdir=TB, fontname="Helvetica", fontsize=11];',
        '  node [shape=box, style="rounded,filled", fillcolor="white", fontname="Helvetica", fontsize=11];',
        '  edge [color="#555555"];',
    ]
    roots = set(graph.roots)
    for n in graph.nodes:
        label_lines = []
        if n.kind == "accumulate":
            label_lines.append(", ".join(n.names) + (" " + _shape(n.shape) if n.shape is not None else "")
                               if n.names else _shape(n.shape) or "leaf")
            label_lines.append("AccumulateGrad")
            fill = "#cfe2f3"
        else:
            label_lines.append(n.name)
            cap = node_caption(n)
            if cap:
                label_lines.append(cap)
            fill = "#d9ead3" if n.id in roots else ("#f3f3f3" if n.kind == "view" else "white")
        if getattr(graph, "values", False):
            label_lines.extend(value_lines(n))
        if show_saved:
            sc = saved_caption(n)
            if sc:
                label_lines.append(sc)
        label = "\n".join(label_lines)
        lines.append(f'  n{n.id} [label="{_dot_escape(label)}", fillcolor="{fill}"];')
    for n in graph.nodes:
        for c, _ in n.next:
            if c is not None:
                lines.append(f"  n{c} -> n{n.id};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_escape(s: str) -> str:
    return (s.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;"))


def to_mermaid(graph: Any, *, show_saved: bool = False) -> str:
    """A Mermaid flowchart, top (leaves) to bottom (roots)."""
    lines = ["flowchart TB"]
    for n in graph.nodes:
        parts = [n.name]
        cap = node_caption(n)
        if cap:
            parts.append(cap)
        if getattr(graph, "values", False):
            parts.extend(value_lines(n))
        if show_saved:
            sc = saved_caption(n)
            if sc:
                parts.append(sc)
        label = "<br/>".join(_mermaid_escape(p) for p in parts)
        shape_open, shape_close = ("([", "])") if n.kind == "accumulate" else ('["', '"]')
        if n.kind == "accumulate":
            lines.append(f'  n{n.id}(["{label}"])')
        else:
            lines.append(f"  n{n.id}{shape_open}{label}{shape_close}")
    for n in graph.nodes:
        for c, _ in n.next:
            if c is not None:
                lines.append(f"  n{c} --> n{n.id}")
    return "\n".join(lines) + "\n"
