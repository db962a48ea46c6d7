"""The graph as an indented tree that keeps its true depth at any length and any width (issue 19).

One row per node, walked from each root with an explicit stack (no recursion); a node reached a second
time (a DAG shares nodes) is printed once in full and then as ``(see above)``.  At a given width:

1. the tree as it is, when its deepest row fits;
2. else straight chains (runs of nodes that each have one input) folded into one row with a count --
   ``MulBackward0 ×58  y59 … y2, lines 60 … 3`` -- one level of indentation standing for them all;
3. else, when even that is too deep, the compact form: each row ``DEPTH: node`` with no tree art, the
   depth written out.

A row longer than the width wraps between words under its own label (a hanging indent), never back to
column 0.  Without a width the tree is printed whole; a file (``--output graph.txt``) gets every node,
in the compact form when the tree is deeper than 200 columns.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from rich.text import Text

__all__ = ["Prefix", "Row", "tree_rows", "render_tree", "FOLD_MIN"]

#: a straight chain is folded when it has at least this many nodes between its two ends
FOLD_MIN = 3
#: the room a label needs beside its indentation (else the compact form)
LABEL_ROOM = 24


class Prefix:
    """Tree art as a chain of segments sharing the parent row's: building every row's prefix is linear
    in the node count, where one string per row is quadratic in a deep chain (10,000 nodes took 2.4 GB).
    ``str()`` spells it out -- only done for the rows printed in tree form, whose depth fits the width."""

    __slots__ = ("parent", "seg", "length")

    def __init__(self, parent: Optional["Prefix"], seg: str) -> None:
        self.parent, self.seg = parent, seg
        self.length = (parent.length if parent is not None else 0) + len(seg)

    def __add__(self, seg: str) -> "Prefix":
        return Prefix(self, seg)

    def __len__(self) -> int:
        return self.length

    def __str__(self) -> str:
        parts = []
        p: Optional[Prefix] = self
        while p is not None:
            parts.append(p.seg)
            p = p.parent
        return "".join(reversed(parts))


EMPTY = Prefix(None, "")


@dataclass
class Row:
    """One printed node: its depth, tree-art prefixes, the node (or the folded chain) and whether it
    repeats a node printed above."""

    depth: int
    prefix: Prefix
    child_prefix: Prefix
    node: Any
    repeat: bool = False
    chain: list = field(default_factory=list)
    saved: str = ""
    values: list = field(default_factory=list)  # --values: value and grad lines


def _kids(node: Any) -> list[int]:
    return [c for c, _ in node.next if c is not None]


def tree_rows(graph: Any, *, fold: bool = False, show_saved: bool = False) -> list[list[Row]]:
    """The rows of each root's tree, in print order; ``fold``: straight chains as one row."""
    from .graphfmt import saved_caption, value_lines

    with_values = bool(getattr(graph, "values", False))

    blocks: list[list[Row]] = []
    expanded: set[int] = set()
    for root in graph.roots:
        rows: list[Row] = []
        stack: list[tuple[int, int, Prefix, Prefix]] = [(root, 0, EMPTY, EMPTY)]
        while stack:
            nid, depth, prefix, child_prefix = stack.pop()
            node = graph.node(nid)
            if nid in expanded:
                rows.append(Row(depth, prefix, child_prefix, node, repeat=True))
                continue
            expanded.add(nid)
            kids = _kids(node)
            row = Row(depth, prefix, child_prefix, node, saved=saved_caption(node, graph) if show_saved else "",
                      values=value_lines(node) if with_values else [])
            rows.append(row)
            if fold and len(kids) == 1:
                chain = []
                cur = kids[0]
                while cur not in expanded and len(_kids(graph.node(cur))) == 1:
                    chain.append(graph.node(cur))
                    cur = _kids(graph.node(cur))[0]
                if len(chain) >= FOLD_MIN:
                    for n in chain:
                        expanded.add(n.id)
                    rows.append(Row(depth + 1, child_prefix + "└── ", child_prefix + "    ", chain[0], chain=chain))
                    stack.append((cur, depth + 1 + len(chain), child_prefix + "    └── ", child_prefix + "        "))
                    continue
            for j in range(len(kids) - 1, -1, -1):
                last = j == len(kids) - 1
                stack.append((kids[j], depth + 1, child_prefix + ("└── " if last else "├── "),
                              child_prefix + ("    " if last else "│   ")))
        blocks.append(rows)
    return blocks


def _chain_label(chain: list) -> tuple[str, str]:
    """``('MulBackward0 ×58', 'y59 … y2, lines 60 … 3')`` for a folded chain."""
    counts = Counter(n.name for n in chain)
    name = ", ".join(f"{k} ×{v}" for k, v in counts.items())
    names = [", ".join(n.names) for n in chain if n.names]
    lines = [n.line for n in chain if n.line is not None and n.kind != "accumulate"]
    parts = []
    if names:
        parts.append(names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}")
    if lines:
        parts.append(f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]} … {lines[-1]}")
    return name, ", ".join(parts)


def _label(row: Row) -> list[tuple[str, str]]:
    """(text, style) pieces of a row's label."""
    from .graphfmt import node_caption

    if row.chain:
        name, caption = _chain_label(row.chain)
        pieces = [(name, "magenta"), ("  (a chain of one-input nodes)" if not caption else "  " + caption, "cyan")]
        return pieces
    node = row.node
    pieces = [(node.name, "magenta" if node.kind != "accumulate" else "blue")]
    caption = node_caption(node)
    if caption:
        pieces.append(("  " + caption, "cyan"))
    if row.repeat:
        pieces.append(("  (see above)", "dim"))
    return pieces


def _wrap(pieces: list[tuple[str, str]], room: int, rest: Optional[int] = None) -> list[list[tuple[str, str]]]:
    """The pieces broken into lines of at most ``room`` characters (the lines after the first: ``rest``,
    default ``room``), between words (a word longer than the room gets a line of its own, whole)."""
    words: list[tuple[str, str]] = []
    for text, style in pieces:
        lead = len(text) - len(text.lstrip(" "))
        first = True
        for w in text.split():
            words.append(((" " * lead if first else " ") + w, style))
            first = False
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for w, style in words:
        if used and used + len(w) > (room if len(lines) == 1 else rest or room):
            lines.append([])
            w = w.lstrip(" ")
            used = 0
        lines[-1].append((w, style))
        used += len(w)
    return lines


def _deepest(blocks: list[list[Row]]) -> int:
    return max((len(r.prefix) for rows in blocks for r in rows), default=0)


def render_tree(graph: Any, *, show_saved: bool = False, width: Optional[int] = None, fold: bool = True) -> Text:
    """The tree of ``graph`` as styled text for a console ``width`` columns wide (None: unbounded);
    ``fold``: may fold straight chains (else the compact form is the only way to fit)."""
    blocks = tree_rows(graph, show_saved=show_saved)
    compact = False
    if width is not None and _deepest(blocks) + LABEL_ROOM > width:
        if fold:
            blocks = tree_rows(graph, fold=True, show_saved=show_saved)
        compact = _deepest(blocks) + LABEL_ROOM > width
    digits = len(str(max((r.depth + max(len(r.chain), 1) - 1 for rows in blocks for r in rows), default=0)))
    out = Text()
    for b, rows in enumerate(blocks):
        if b:
            out.append("\n")
        for row in rows:
            if compact:
                depth = str(row.depth) if not row.chain else f"{row.depth}-{row.depth + len(row.chain) - 1}"
                head = f"{depth:>{digits}}: " if not row.chain else f"{depth}: "
                cont = " " * len(head)
            else:
                head, cont = str(row.prefix), str(row.child_prefix) + ("│   " if _kids(row.node) and not row.repeat
                                                            and not row.chain else "    ")
            room = max(LABEL_ROOM, (width or 10**9) - len(head))
            # lines under the label start after ``cont``, which is longer than ``head`` for a parent node
            under = max(LABEL_ROOM, (width or 10**9) - len(cont))
            for i, line in enumerate(_wrap(_label(row), room, under)):
                out.append(head if i == 0 else cont, style="dim")
                for text, style in line:
                    out.append(text, style=style)
                out.append("\n")
            for extra in row.values:
                for line in _wrap([(extra, "green")], under):
                    out.append(cont, style="dim")
                    for text, style in line:
                        out.append(text, style=style)
                    out.append("\n")
            if row.saved:
                for line in _wrap([(row.saved, "yellow")], under):
                    out.append(cont, style="dim")
                    for text, style in line:
                        out.append(text, style=style)
                    out.append("\n")
    return out
