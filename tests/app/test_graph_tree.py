"""The tree renderer's cost on deep graphs: linear in the node count, not quadratic (app/render/tree.py)."""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field

from gradcli.app.render.tree import render_tree, tree_rows


@dataclass
class _Node:
    id: int
    next: list = field(default_factory=list)
    name: str = "MulBackward0"
    names: list = field(default_factory=list)
    line: int = 7
    kind: str = "op"
    shape: tuple = (4,)
    saved: list = field(default_factory=list)


class _Chain:
    """A straight chain of ``n`` one-input nodes with a second input on every other node (so nothing folds)."""

    def __init__(self, n: int) -> None:
        self.nodes = [_Node(i) for i in range(n)]
        for i in range(n - 1):
            self.nodes[i].next = [(i + 1, 0)]
        self.roots = [0]
        self.notes: list = []

    def node(self, nid: int) -> _Node:
        return self.nodes[nid]


def test_tree_rows_of_a_20000_deep_chain_is_linear_in_memory():
    # one prefix string per row would hold 4 * (0 + 1 + ... + 19,999) = 800 million characters
    graph = _Chain(20_000)
    tracemalloc.start()
    try:
        (rows,) = tree_rows(graph)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20
    assert len(rows) == 20_000 and len(rows[-1].prefix) == 4 * 19_999
    assert str(rows[2].prefix) == "    └── " and str(rows[2].child_prefix) == "        "


def test_a_deep_chain_prints_in_the_compact_form_at_a_width():
    text = render_tree(_Chain(5_000), width=80, fold=False).plain.splitlines()
    assert len(text) == 5_000 and text[0] == "   0: MulBackward0  line 7" and text[-1] == "4999: MulBackward0  line 7"
