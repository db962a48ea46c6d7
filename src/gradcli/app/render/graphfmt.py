"""Text forms of a :class:`~gradcli.app.graph.Graph`: tree (plain or rich), DOT, Mermaid.

All walks use an explicit stack (no recursion).  In the tree a node reached a
second time (a DAG shares nodes: ``y = (a + b) * a``) is printed once in full
and then as ``(see above)``.  DOT and Mermaid draw edges the way data flowed
forward (from an input's node to the node that used it), as torchviz does,
so leaves are on top and the root at the bottom.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from rich.text import Text

__all__ = ["to_tree_rich", "to_tree_text", "to_dot", "to_mermaid", "node_caption", "saved_caption",
           "value_lines", "format_summary"]


def _shape(shape: Optional[list[int]]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]" if shape is not None else ""


def node_caption(node: Any, *, with_module: bool = True) -> str:
    """'y, line 3' / 'x [2]' / 'line 5' / 'model.fc1, line 9': the file-facing part of a node's label
    (``with_module=False``: without the module path, for a node drawn inside its module's box); a module
    drawn as one node (``--depth``) reads 'loss, 3 nodes, line 9' (the names of the tensors inside it)."""
    if node.kind == "module":
        return ", ".join([*([", ".join(node.names)] if node.names else []),
                          f"{node.members} node{'s' if node.members != 1 else ''}",
                          *([f"line {node.line}"] if node.line is not None else [])])
    parts = []
    if node.names:
        parts.append(", ".join(node.names))
    if node.kind == "accumulate" and node.shape is not None:
        parts[-1:] = [(parts[-1] + " " if parts else "") + _shape(node.shape)]
    # an AccumulateGrad node is made where its leaf is first used, not where the leaf was made:
    # its line would mislead, so only op nodes show theirs (JSON keeps every node's line)
    module = getattr(node, "module", None)
    if module and with_module:
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


def saved_is(s: Any, graph: Any = None) -> str:
    """What a saved tensor is, for people: 'v (view of y)', 'x (leaf)', 'the result', 'a constant',
    'output 0 of MulBackward0' for an unnamed input ('' when unknown); a version that moved since the save
    adds ', version 0 at save, 1 now' (the backward then fails: PyTorch checks it)."""
    kind = getattr(s, "is_kind", None)
    name = getattr(s, "tensor", None)
    view_of = getattr(s, "view_of", None)
    if not name and view_of and kind in ("input", "leaf", "constant"):
        name, view_of = f"a view of {view_of}", None
    if kind == "result":
        text = f"the result {name}" if name else "the result"
    elif kind == "constant":
        text = f"{name} (no grad)" if name else "a constant (no grad)"
    elif kind == "leaf":
        text = f"{name} (leaf)" if name else "a leaf"
    elif kind == "input":
        if name:
            text = name
        elif graph is not None and getattr(s, "source", None) is not None:
            text = f"output {s.output} of {graph.node(s.source).name}"
        else:
            text = "an input"
    else:
        text = ""
    if text and view_of:
        text += f" (view of {view_of})"
    v, now = getattr(s, "version", None), getattr(s, "version_now", None)
    if v is not None and now is not None and v != now:
        text += f", version {v} at save, {now} now"
    return text


def saved_caption(node: Any, graph: Any = None) -> str:
    """'saved: _saved_self [2] = x (leaf), _saved_other (freed) = w' or '' when the node saved no tensor (see
    :func:`saved_is`); a value a checkpoint dropped reads '_saved_self [2] dropped (recomputed in backward)'."""
    if not node.saved:
        return ""
    items = []
    for s in node.saved:
        if s.freed:
            item = f"{s.name} (freed)"
        elif getattr(s, "dropped", False):
            item = f"{s.name} {_shape(s.shape)} dropped (recomputed in backward)".replace("  ", " ")
        else:
            item = f"{s.name} {_shape(s.shape)}".rstrip()
        what = saved_is(s, graph)
        items.append(f"{item} = {what}" if what else item)
    return "saved: " + ", ".join(items)


def _saved_label(s: Any, graph: Any) -> list[str]:
    """The lines of a saved tensor's own node (--show-saved in DOT and Mermaid)."""
    lines = [s.name]
    if s.freed:
        lines.append("freed by backward")
    elif getattr(s, "dropped", False):
        lines.append(f"{_shape(s.shape)} dropped (recomputed in backward)".strip())
    else:
        lines.append(_shape(s.shape) or "[] (0-d)")
    what = saved_is(s, graph)
    if what:
        lines.append("= " + what)
    return lines


def _saved_nodes(graph: Any) -> Iterator[tuple[str, int, Any, Optional[int]]]:
    """Each saved tensor drawn as its own node (dot and mermaid): its node id ``s{node}_{k}``, the node that
    saved it, the SavedInfo, and the node of the tensor it is (None when unknown, hidden, or the saving node
    itself: its own result)."""
    for n in graph.nodes:
        for k, s in enumerate(n.saved):
            src = getattr(s, "source", None)
            yield f"s{n.id}_{k}", n.id, s, src if src != n.id else None


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


def repeat_caption(node: Any) -> str:
    """'× 6 (the loop at line 9)': a rolled node's count of iterations (app/graph.roll_loops)."""
    return f"× {node.repeat} (the loop at line {node.loop_line})"


def module_boxes(graph: Any) -> tuple[dict[str, list], dict[Optional[str], list[str]]]:
    """The module boxes of a graph: ``(members, children)`` -- ``members[path]``: the ids of the nodes drawn
    directly in that module's box (made in its own forward, not a submodule's); ``children[path]``: the
    boxes nested in it (``children[None]``: the outermost ones).  A node of kind ``module`` (``--depth``)
    sits in its parent's box.  Every path's ancestors get a box (a submodule's call runs inside its
    parent's), in first-seen order."""
    members: dict[str, list] = {}
    children: dict[Optional[str], list[str]] = {None: []}

    def add(path: str) -> None:
        if path in members:
            return
        parent = path.rpartition(".")[0] or None
        if parent is not None:
            add(parent)
        members[path] = []
        children.setdefault(parent, []).append(path)
        children.setdefault(path, [])

    for n in graph.nodes:
        if n.module is not None:
            add(n.module)
            members[n.module].append(n.id)
    return members, children


def _grouped(graph: Any, node_lines: dict, box: Any) -> list[str]:
    """The node lines of a picture, two-space indented: first the nodes outside every module box, then each
    box (:func:`module_boxes`), nested by path; ``box(k, path)`` gives the k-th box's opening lines and its
    closing line in the picture's syntax."""
    members, children = module_boxes(graph)
    boxed = {i for ids in members.values() for i in ids}
    out = ["  " + node_lines[n.id] for n in graph.nodes if n.id not in boxed]
    count = 0

    def emit(path: str, indent: str) -> None:
        nonlocal count
        count += 1
        opening, closing = box(count, path)
        out.extend(indent + line for line in opening)
        out.extend(f"{indent}  {node_lines[i]}" for i in members[path])
        for child in children.get(path, ()):
            emit(child, indent + "  ")
        out.append(indent + closing)

    for top in children[None]:
        emit(top, "  ")
    return out


def _module_title(graph: Any, path: str) -> str:
    cls = (getattr(graph, "modules", None) or {}).get(path)
    return f"{path} ({cls})" if cls and cls != path else path


def to_dot(graph: Any, *, show_saved: bool = False, saved_nodes: bool = True) -> str:
    """Graphviz DOT text: nodes labelled with grad_fn name, file names and lines.  ``show_saved``: each saved
    tensor as its own node (``saved_nodes``, issue 23 must-have 2) or as a caption of its node (the HTML
    report, whose side panel lists them)."""
    lines = [
        'digraph "gradcli" {',
        '  graph [rankdir=TB, fontname="Helvetica", fontsize=11];',
        '  node [shape=box, style="rounded,filled", fillcolor="white", fontname="Helvetica", fontsize=11];',
        '  edge [color="#555555"];',
    ]
    roots = set(graph.roots)
    node_lines: dict[int, str] = {}
    for n in graph.nodes:
        label_lines = []
        if n.kind == "module":
            label_lines.append(_module_title(graph, n.name))
            label_lines.append(f"{n.members} node{'s' if n.members != 1 else ''} (--depth)")
            label = "\n".join(label_lines)
            node_lines[n.id] = (f'n{n.id} [label="{_dot_escape(label)}", shape=box3d, style="filled", '
                                f'fillcolor="#fff2cc"];')
            continue
        if n.kind == "accumulate":
            label_lines.append(", ".join(n.names) + (" " + _shape(n.shape) if n.shape is not None else "")
                               if n.names else _shape(n.shape) or "leaf")
            label_lines.append("AccumulateGrad")
            fill = "#cfe2f3"
        else:
            label_lines.append(n.name)
            cap = node_caption(n, with_module=False)
            if cap:
                label_lines.append(cap)
            fill = "#d9ead3" if n.id in roots else ("#f3f3f3" if n.kind == "view" else "white")
        if n.repeat:
            label_lines.append(repeat_caption(n))
        if getattr(graph, "values", False):
            label_lines.extend(value_lines(n))
        if show_saved and not saved_nodes:
            sc = saved_caption(n, graph)
            if sc:
                label_lines.append(sc)
        label = "\n".join(label_lines)
        node_lines[n.id] = f'n{n.id} [label="{_dot_escape(label)}", fillcolor="{fill}"];'
    lines.extend(_grouped(graph, node_lines, lambda k, path: (
        [f"subgraph cluster_{k} {{",
         f'  label="{_dot_escape(_module_title(graph, path))}"; labeljust="l"; style="rounded,dashed"; '
         'color="#7f7f7f"; fontname="Helvetica"; fontsize=10;'], "}")))
    if show_saved and saved_nodes:
        # each saved tensor its own node, as torchviz's show_saved draws them (orange; freed ones dashed and
        # grey), tied to the node that saved it, with an edge from the node whose output it is
        for sid, owner, s, src in _saved_nodes(graph):
            style = 'style="dashed", fontcolor="#777777", color="#999999"' if s.freed else \
                'style="filled", fillcolor="#fce5cd"'
            lines.append(f'  {sid} [label="{_dot_escape(chr(10).join(_saved_label(s, graph)))}", shape=box, '
                         f'{style}, fontsize=10];')
            lines.append(f'  {sid} -> n{owner} [style=dotted, dir=none];')
            if src is not None:
                lines.append(f'  n{src} -> {sid} [style=dotted, color="#e69138", label="is", fontsize=9];')
    for n in graph.nodes:
        for c, _ in n.next:
            if c is not None:
                if c in getattr(n, "from_previous", ()):  # a rolled loop's recurrence
                    lines.append(f'  n{c} -> n{n.id} [style=dashed, label="previous iteration", fontsize=9];')
                else:
                    lines.append(f"  n{c} -> n{n.id};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_escape(s: str) -> str:
    return (s.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;"))


def to_mermaid(graph: Any, *, show_saved: bool = False) -> str:
    """A Mermaid flowchart, top (leaves) to bottom (roots)."""
    lines = ["flowchart TB"]
    node_lines: dict[int, str] = {}
    for n in graph.nodes:
        if n.kind == "module":
            label = "<br/>".join(_mermaid_escape(p) for p in (
                _module_title(graph, n.name), f"{n.members} node{'s' if n.members != 1 else ''} (--depth)"))
            node_lines[n.id] = f'n{n.id}[["{label}"]]'
            continue
        parts = [n.name]
        cap = node_caption(n, with_module=False)
        if cap:
            parts.append(cap)
        if n.repeat:
            parts.append(repeat_caption(n))
        if getattr(graph, "values", False):
            parts.extend(value_lines(n))
        label = "<br/>".join(_mermaid_escape(p) for p in parts)
        shape_open, shape_close = ("([", "])") if n.kind == "accumulate" else ('["', '"]')
        if n.kind == "accumulate":
            node_lines[n.id] = f'n{n.id}(["{label}"])'
        else:
            node_lines[n.id] = f"n{n.id}{shape_open}{label}{shape_close}"
    lines.extend(_grouped(graph, node_lines, lambda k, path: (
        [f'subgraph m{k}["{_mermaid_escape(_module_title(graph, path))}"]'], "end")))
    if show_saved:  # each saved tensor its own node (see to_dot); freed ones dashed
        freed = []
        for sid, owner, s, src in _saved_nodes(graph):
            label = "<br/>".join(_mermaid_escape(p) for p in _saved_label(s, graph))
            lines.append(f'  {sid}[/"{label}"/]')
            lines.append(f"  {sid} -.- n{owner}")
            if src is not None:
                lines.append(f"  n{src} -. is .-> {sid}")
            if s.freed:
                freed.append(sid)
        if freed:
            lines.append("  classDef freed stroke-dasharray: 5 5, color:#777777")
            lines.append(f"  class {','.join(freed)} freed")
    for n in graph.nodes:
        for c, _ in n.next:
            if c is not None:
                arrow = "-. previous iteration .->" if c in getattr(n, "from_previous", ()) else "-->"
                lines.append(f"  n{c} {arrow} n{n.id}")
    return "\n".join(lines) + "\n"
