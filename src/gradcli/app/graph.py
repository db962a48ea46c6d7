"""The ``graph`` service: the autograd DAG a file built, as plain data.

From the roots (``--root`` names, or every named tensor that no other named
tensor was computed from) the walk follows ``grad_fn.next_functions``
*iteratively* (an explicit queue: no recursion, so a 10,000-step chain is
fine).  Nodes are labelled with the file's names: a tensor's name goes on the
node that is its ``grad_fn`` (matched by identity), a leaf's name on its
``AccumulateGrad`` node (matched by the node's ``.variable``); each node also
carries the source line that created it (the engine's ``_line``) and, for
``--show-saved``, its saved tensors and whether backward freed them.

``--hide accumulate,views`` splices nodes out: an edge into a hidden node is
replaced by that node's own edges (resolved iteratively), so hiding
``AccumulateGrad`` drops the edges to leaves and hiding views connects an op
straight to the op before the view.

Writing: text formats go to stdout or ``--output``; ``.svg``/``.png`` are
rendered by Graphviz's ``dot`` program (a clear :class:`ToolMissing` when it is
absent).  Files are written atomically (a temporary file in the same folder,
then ``os.replace``), so a failed render never leaves half a file.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .problems import ToolMissing, UsageProblem

__all__ = [
    "SCHEMA",
    "SavedInfo",
    "GraphNode",
    "Graph",
    "build_graph",
    "graph_document",
    "output_format",
    "write_graph",
    "write_atomic",
    "check_output_path",
    "render_with_dot",
]

SCHEMA = "gradcli.graph/3"

#: grad_fn names of PyTorch's view operations (``--hide views``)
_VIEW_RE = re.compile(
    r"^(View|Reshape|ReshapeAlias|UnsafeView|Expand|T|Transpose|Permute|Unsqueeze|Squeeze|Select|Slice|"
    r"AsStrided|Diagonal|Alias|Unbind|Split|SplitWithSizes|Narrow|Unfold|Detach|Real|Imag|ViewAsReal|"
    r"ViewAsComplex|Flatten|Unflatten)Backward\d*$"
)

#: file extension of --output -> format
_EXTENSIONS = {
    ".dot": "dot", ".gv": "dot", ".mmd": "mermaid", ".mermaid": "mermaid", ".json": "json",
    ".txt": "tree", ".svg": "svg", ".png": "png",
}
_TEXT_FORMATS = ("tree", "dot", "mermaid", "json")


@dataclass
class SavedInfo:
    """One tensor a node saved for backward.

    ``name`` is PyTorch 2.13's attribute for it (``_saved_self``, ``_saved_result``: autograd/saved_fields.py;
    ``saved_tensors[i]`` for a custom Function's ctx), ``saved<i>`` where gradcli does not know the field.
    What it *is* (``graph --show-saved``, issue 23 must-have 2): ``is_kind`` 'input' (a tensor with a grad_fn:
    ``source`` is that node, ``output`` its output number), 'leaf' (a leaf that requires grad: ``source`` is
    its AccumulateGrad node), 'constant' (a tensor without grad: no node), 'result' (the node's own output,
    which PyTorch saves without a reference: ``source`` is the node itself), or None when unknown;
    ``tensor``: the file's name for it, ``view_of``: the named tensor it is a view of; ``version`` /
    ``version_now``: its version counter when saved and now (they differ after an in-place change, and then
    the backward raises PyTorch's "modified by an inplace operation").  ``source`` is a node id of the graph
    (None: not drawn, as past --hide or the node limit).
    """

    name: str
    shape: Optional[list[int]]
    freed: bool
    dropped: bool = False  # a checkpoint dropped the value: backward recomputes it (not in gradcli.graph/1)
    is_kind: Optional[str] = None
    source: Optional[int] = None
    output: int = 0
    tensor: Optional[str] = None
    view_of: Optional[str] = None
    version: Optional[int] = None
    version_now: Optional[int] = None


@dataclass
class GraphNode:
    """One backward node (a ``grad_fn``) reached from the roots."""

    id: int
    name: str
    tensor: Optional[str] = None
    names: list[str] = field(default_factory=list)
    line: Optional[int] = None
    kind: str = "op"  # 'op' | 'accumulate' | 'view'
    saved: list[SavedInfo] = field(default_factory=list)
    next: list[tuple[Optional[int], int]] = field(default_factory=list)
    shape: Optional[list[int]] = None
    module: Optional[str] = None  # the innermost nn.Module call that made it (``model.fc1``), SPEC §2b
    # --depth: a module drawn as one node (kind 'module') stands for this many nodes made inside it
    members: int = 0
    # the engine's creation order of the node (Node._seq), for rolling loops; None for a leaf's AccumulateGrad
    seq: Optional[int] = None
    # a rolled loop (roll_loops): this node stands for the same node of each of ``repeat`` iterations of the
    # loop whose ``for``/``while`` is at line ``loop_line``; ``rolled`` are the ids of those nodes in the
    # unrolled graph, first iteration first
    repeat: int = 0
    loop_line: Optional[int] = None
    rolled: list[int] = field(default_factory=list)
    # a rolled node's inputs that come from the iteration before (the loop's recurrence: ``h = f(h)``)
    from_previous: list[int] = field(default_factory=list)
    # --values (autograd/values.py summaries): the output's value when it was made (a leaf: its value at the end)
    value: Optional[dict] = None
    # --values: the gradient of the root w.r.t. this node's output in the last backward pass that ran the node
    # (a leaf: its .grad at the end); None when no pass ran it or no gradient arrived
    grad: Optional[dict] = None
    # --values: which output value/grad describe (nodes with several outputs: the first one recorded)
    output: int = 0
    # --values: how many backward passes ran the node (0: none), and whether a gradient arrived in the last
    passes: int = 0


@dataclass
class Graph:
    """The graph of a run: nodes in discovery order (roots first), and notes for people."""

    file: str
    roots: list[int] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: Any = None  # the file's own error (an ErrorRecord): the graph is then what it built before it stopped
    values: bool = False  # --values: nodes carry value and grad
    # module path -> its class name, for every nn.Module call that made a node (``{"model.fc1": "Linear"}``);
    # the renderers draw a box per path (SPEC §2b)
    modules: dict[str, str] = field(default_factory=dict)
    # a rolled copy (roll_loops): the unrolled graph's node id -> this graph's node id
    rolled_from: dict[int, int] = field(default_factory=dict)
    # id(engine node) -> node id, as build_graph numbered them (empty after --hide / --depth renumbered them);
    # the run's result keeps the engine nodes alive, so an id is not reused while the result lives
    node_ids: dict[int, int] = field(default_factory=dict, repr=False, compare=False)

    def node(self, node_id: int) -> GraphNode:
        return self._index[node_id]

    def __post_init__(self) -> None:
        self._index: dict[int, GraphNode] = {}

    def _reindex(self) -> None:
        self._index = {n.id: n for n in self.nodes}


def _node_kind(node: Any) -> str:
    name = type(node).__name__
    if name == "AccumulateGrad" or (hasattr(node, "variable") and not getattr(node, "next_functions", ())):
        return "accumulate"
    flag = getattr(type(node), "is_view", None)
    if isinstance(flag, bool):
        return "view" if flag else "op"
    return "view" if _VIEW_RE.match(name) else "op"


def _saved_field_names(node: Any, count: int) -> list[str]:
    """PyTorch 2.13's attribute name of each of ``node``'s ``count`` saved entries (``_saved_self``)."""
    from ..autograd.function import BackwardCFunction
    from ..autograd.saved_fields import SPECS

    if isinstance(node, BackwardCFunction):
        return [f"saved_tensors[{i}]" for i in range(count)]
    by_index = {v: k for k, v in (SPECS.get(type(node).__name__) or {}).items()
                if isinstance(v, str) and v[:1] == "s" and v[1:].isdigit()}
    return [by_index.get(f"s{i}", f"saved{i}") for i in range(count)]


def _saved_identity(info: SavedInfo, s: Any, node_id: int, numbering: dict, by_tensor: dict,
                    node_names: list) -> None:
    """Fill what the saved entry ``s`` (an engine SavedTensor) is: see :class:`SavedInfo`."""
    if isinstance(getattr(s, "_version", None), int) and getattr(s, "_box", None) is not None:
        info.version, info.version_now = int(s._version), int(s._box[0])
    if getattr(s, "_is_output", False):
        info.is_kind, info.source, info.output = "result", node_id, int(getattr(s, "_output_nr", 0) or 0)
        info.tensor = node_names[0] if node_names and info.output == 0 else None
        return
    hooked = getattr(s, "_hook", None) is not None
    meta = getattr(s, "_meta", None) if hooked else None
    t = getattr(s, "_tensor", None)
    if t is None and not hooked and getattr(s, "_was", None) is not None:
        # freed: the tensor's identity as release() kept it (weakly: it may be gone)
        tref, fref, nr, rg, aref = s._was
        t = tref() if tref is not None else None
        if t is None:
            fn, acc = (fref() if fref is not None else None), (aref() if aref is not None else None)
            meta = (None, fn, nr if fn is not None else rg, acc if rg and fn is None else None)
    if meta is not None:  # saved-tensor hooks hold the value: the autograd identity is kept beside it
        _, fn, nr, acc = meta
        if fn is not None:
            info.is_kind, info.source, info.output = "input", numbering.get(id(fn)), int(nr or 0)
        elif acc is not None:
            info.is_kind, info.source = "leaf", numbering.get(id(acc))
            names = by_tensor.get(id(getattr(acc, "variable", None)))
            info.tensor = names[0] if names else None
        else:
            info.is_kind = "constant"
        return
    if t is None:
        return
    fn = getattr(t, "_grad_fn", None)
    if fn is not None:
        info.is_kind, info.source, info.output = "input", numbering.get(id(fn)), int(getattr(t, "_output_nr", 0))
    elif getattr(t, "_requires_grad", False):
        acc = getattr(t, "_acc", None)
        acc = acc() if callable(acc) else None
        info.is_kind, info.source = "leaf", numbering.get(id(acc)) if acc is not None else None
    else:
        info.is_kind = "constant"
    names = by_tensor.get(id(t))
    info.tensor = names[0] if names else None
    base = getattr(t, "_base", None)
    if base is not None:
        names = by_tensor.get(id(base))
        info.view_of = names[0] if names else "an unnamed tensor"


def _saved_of(node: Any, node_id: int = 0, numbering: Optional[dict] = None, by_tensor: Optional[dict] = None,
              node_names: Optional[list] = None) -> list[SavedInfo]:
    """The tensors ``node`` saved, named as PyTorch names them, with what each is (:class:`SavedInfo`);
    ``numbering``: id(engine node) -> node id; ``by_tensor``: id(tensor) -> the file's names."""
    items = getattr(node, "_saved", ()) or ()
    names = getattr(node, "saved_names", None) or getattr(node, "_saved_names", None) or \
        _saved_field_names(node, len(items))
    out = []
    for i, s in enumerate(items):
        if not (hasattr(s, "freed") and hasattr(s, "shape")):
            continue  # a non-tensor saved value (a size, a scalar)
        label = str(names[i]) if i < len(names) else f"saved{i}"
        freed = bool(s.freed)
        shape = None if freed else [int(d) for d in s.shape]
        info = SavedInfo(name=label, shape=shape, freed=freed, dropped=bool(getattr(s, "dropped", False)))
        _saved_identity(info, s, node_id, numbering or {}, by_tensor or {}, node_names or [])
        out.append(info)
    return out


def remap_saved(graph: "Graph", mapping: dict) -> None:
    """After the graph's nodes were renumbered (``mapping``: old id -> new id; a missing id was removed), point
    every saved tensor's ``source`` at the new id (None when its node is gone)."""
    for n in graph.nodes:
        for s in n.saved:
            if s.source is not None:
                s.source = mapping.get(s.source)


def _next_edges(node: Any) -> list[tuple[Any, int]]:
    edges = []
    for edge in getattr(node, "next_functions", ()) or ():
        try:
            fn, index = edge
        except (TypeError, ValueError):
            fn, index = edge, 0
        edges.append((fn, int(index or 0)))
    return edges


def _grad_fn(t: Any) -> Any:
    """``t.grad_fn``, or None where reading it raises (a view whose base changed in place, as PyTorch)."""
    from ..errors import GradcliError

    try:
        return t.grad_fn
    except GradcliError:
        return None


def _tensor_map(result: Any) -> tuple[dict[int, list[str]], dict[int, list[str]], dict[str, Any]]:
    """id(grad_fn) -> names, id(leaf tensor) -> names, name -> tensor."""
    by_fn: dict[int, list[str]] = {}
    by_var: dict[int, list[str]] = {}
    tensors: dict[str, Any] = {}
    for name, t in result.tensors:
        tensors[name] = t
        fn = _grad_fn(t)
        if fn is not None:
            by_fn.setdefault(id(fn), []).append(name)
        else:
            by_var.setdefault(id(t), []).append(name)
    return by_fn, by_var, tensors


def _default_roots(result: Any) -> list[tuple[str, Any]]:
    """Named tensors with a grad_fn that no other named tensor's graph reaches."""
    starts: list[tuple[str, Any]] = []
    seen_fn: set[int] = set()
    for name, t in result.tensors:
        fn = _grad_fn(t)
        if fn is not None and id(fn) not in seen_fn:
            seen_fn.add(id(fn))
            starts.append((name, fn))
    reached: set[int] = set()
    visited: set[int] = set()
    stack = [fn for _, fn in starts]
    while stack:
        fn = stack.pop()
        for child, _ in _next_edges(fn):
            if child is None:
                continue
            reached.add(id(child))
            if id(child) not in visited:
                visited.add(id(child))
                stack.append(child)
    return [(name, fn) for name, fn in starts if id(fn) not in reached]


#: graphs of more nodes than this are drawn with their loops rolled up (``graph --unroll`` draws every node)
ROLL_ABOVE = 30


def _loop_ranges(source: str) -> list[tuple[int, int, int]]:
    """``(loop line, first body line, last body line)`` of every outermost ``for``/``while`` of the source
    (a loop inside a function or class body counts too; one nested in another loop does not)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[int, int, int]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.For, ast.While, ast.AsyncFor)) and child.body:
                out.append((child.lineno, child.body[0].lineno, max(getattr(child, "end_lineno", child.lineno),
                                                                    child.body[-1].lineno)))
            else:
                stack.append(child)
    return sorted(out)


def _period(sigs: list) -> int:
    """The smallest p with ``sigs[i] == sigs[i + p]`` for every i, p dividing len(sigs); len(sigs) if none."""
    n = len(sigs)
    for p in range(1, n // 2 + 1):
        if n % p == 0 and all(sigs[i] == sigs[i + p] for i in range(n - p)):
            return p
    return n


def roll_loops(graph: Graph, source: str, above: int = ROLL_ABOVE) -> Graph:
    """A copy of ``graph`` with each loop's repeated iterations drawn once (issue 23 must-have 3), or
    ``graph`` itself when it has at most ``above`` nodes or no loop to roll.

    The nodes a ``for``/``while`` body made (by line; a leaf's AccumulateGrad is shared, never rolled),
    in creation order (``GraphNode.seq``), must repeat one pattern of (name, line, module) N >= 2 times:
    then the pattern's k-th node stands for the k-th node of every iteration (``repeat`` = N, ``rolled``
    = their ids), and every edge keeps its ends' pattern positions -- an iteration's edge to the one before
    becomes an edge between pattern nodes (a self-edge for a chain ``x = x * c``).  A loop whose
    iterations differ (a branch taken in some) is left unrolled.
    """
    if len(graph.nodes) <= above:
        return graph
    ranges = _loop_ranges(source)
    if not ranges:
        return graph
    pos: dict[int, tuple[int, int]] = {}  # node id -> (loop index, position in the pattern)
    iteration: dict[int, int] = {}  # node id -> its iteration (0 = the first)
    reps: list[tuple[int, int, list, list]] = []  # per rolled loop: (loop line, N, pattern nodes, members)
    for loop_line, lo, hi in ranges:
        body = sorted((n for n in graph.nodes if n.seq is not None and n.line is not None and lo <= n.line <= hi),
                      key=lambda n: n.seq)
        if len(body) < 2:
            continue
        sigs = [(n.name, n.line, n.module) for n in body]
        p = _period(sigs)
        n_iter = len(body) // p
        if n_iter < 2:
            continue
        li = len(reps)
        pattern = body[-p:]  # the last iteration's nodes: they carry the names the file kept (hx, loss)
        members = [[body[i * p + k].id for i in range(n_iter)] for k in range(p)]
        reps.append((loop_line, n_iter, pattern, members))
        for k in range(p):
            for i, nid in enumerate(members[k]):
                pos[nid] = (li, k)
                iteration[nid] = i
    if not reps:
        return graph
    import copy

    new = Graph(file=graph.file, roots=[], nodes=[], notes=list(graph.notes), error=graph.error,
                values=graph.values, modules=dict(graph.modules))
    rep_id: dict[tuple[int, int], int] = {}
    out_nodes: list[GraphNode] = []
    old_to_new: dict[int, int] = {}
    for n in graph.nodes:
        key = pos.get(n.id)
        if key is None:
            m = copy.copy(n)
            m.next = list(n.next)
            m.saved = [copy.copy(x) for x in n.saved]
            out_nodes.append(m)
            old_to_new[n.id] = len(out_nodes) - 1
            continue
        if key in rep_id:
            old_to_new[n.id] = rep_id[key]
            continue
        loop_line, n_iter, pattern, members = reps[key[0]]
        base = pattern[key[1]]
        m = copy.copy(base)
        m.saved = [copy.copy(x) for x in base.saved]
        m.repeat, m.loop_line, m.rolled = n_iter, loop_line, list(members[key[1]])
        m.names = sorted({nm for nid in members[key[1]] for nm in graph.node(nid).names},
                         key=lambda s: (s not in base.names, s))
        m.tensor = m.names[0] if m.names else None
        out_nodes.append(m)
        rep_id[key] = len(out_nodes) - 1
        for nid in members[key[1]]:
            old_to_new[nid] = rep_id[key]
    nexts: dict[int, list] = {i: [] for i in range(len(out_nodes))}
    previous: dict[int, set] = {i: set() for i in range(len(out_nodes))}
    for n in graph.nodes:
        me = old_to_new[n.id]
        for c, i in n.next:
            nexts[me].append((None if c is None else old_to_new[c], i))
            if c is not None and c in pos and n.id in pos and pos[c][0] == pos[n.id][0] \
                    and iteration[c] != iteration[n.id]:
                previous[me].add(old_to_new[c])
    for i, m in enumerate(out_nodes):
        m.id = i
        m.from_previous = sorted(previous[i])
        seen_edges: list = []
        for e in nexts[i]:
            if e not in seen_edges and not (e[0] is None and m.repeat and any(x[0] is not None and x[1] == e[1]
                                                                            for x in nexts[i])):
                seen_edges.append(e)
        m.next = seen_edges
    new.nodes = out_nodes
    new.rolled_from = dict(old_to_new)
    remap_saved(new, old_to_new)
    new.roots = list(dict.fromkeys(old_to_new[r] for r in graph.roots))
    new._reindex()
    rolled = ", ".join(f"the loop at line {ln} (× {n_iter})" for ln, n_iter, _, _ in reps)
    new.notes.append(f"rolled {rolled}: each node stands for its iterations; --unroll draws every node")
    return new


def _module_classes(result: Any) -> dict[str, str]:
    """Module path -> class name of every module call the run logged (a module no top-level name reaches is
    named by its class, as :func:`_module_labels` names it)."""
    calls = (getattr(result, "logs", None) or {}).get("modules") or []
    if not calls:
        return {}
    from ..nn.module import module_path_names

    paths = module_path_names(getattr(result, "namespace", None) or {})
    out: dict[str, str] = {}
    for _s, _e, m in calls:
        name = type(m).__name__
        out.setdefault(paths.get(id(m)) or name, name)
    return out


def module_depth(path: str) -> int:
    """``model`` -> 1, ``model.fc1`` -> 2: how deep a module path is."""
    return path.count(".") + 1


def collapse_modules(graph: Graph, depth: int) -> None:
    """``--depth N``: draw each module at depth N (``module_depth(path) == N``) as one node of kind ``module``
    standing for every node made inside it (its submodules' included); edges into and out of its nodes
    become edges of that node (self-edges dropped).  Shallower modules stay boxes; a graph without modules
    is unchanged.  Raises nothing; ``depth`` >= 1 (the CLI checks)."""
    rep: dict[int, int] = {}
    groups: dict[str, list[GraphNode]] = {}
    for n in graph.nodes:
        if n.module is not None and module_depth(n.module) >= depth:
            top = ".".join(n.module.split(".")[:depth])
            groups.setdefault(top, []).append(n)
    if not groups:
        return
    next_id = max(n.id for n in graph.nodes) + 1
    made: dict[str, GraphNode] = {}
    for path, members in groups.items():
        lines = [m.line for m in members if m.line is not None]
        parent = path.rpartition(".")[0] or None
        node = GraphNode(id=next_id, name=path, kind="module", line=min(lines) if lines else None,
                         module=parent, members=len(members),
                         names=sorted({nm for m in members for nm in m.names}))
        next_id += 1
        made[path] = node
        for m in members:
            rep[m.id] = node.id
    edges: dict[int, list] = {node.id: [] for node in made.values()}
    for n in graph.nodes:
        owner = rep.get(n.id, n.id)
        out = edges.setdefault(owner, []) if owner in edges else None
        new_next = []
        for c, i in n.next:
            target = rep.get(c, c) if c is not None else None
            if target is not None and target == owner:
                continue  # inside the collapsed module
            new_next.append((target, i))
        if out is not None:
            out.extend(e for e in new_next if e[0] is not None)
        else:
            n.next = list(dict.fromkeys(new_next))
    for path, node in made.items():
        node.next = list(dict.fromkeys((c, 0) for c, _ in edges[node.id]))
    # the module node takes the place of its first member, in discovery order
    order: list[GraphNode] = []
    placed: set = set()
    for n in graph.nodes:
        if n.id in rep:
            r = rep[n.id]
            if r not in placed:
                placed.add(r)
                order.append(next(v for v in made.values() if v.id == r))
        else:
            order.append(n)
    graph.nodes = order
    graph.roots = list(dict.fromkeys(rep.get(r, r) for r in graph.roots))
    renum = {n.id: i for i, n in enumerate(graph.nodes)}
    old_ids = {n.id for n in graph.nodes} | set(rep)
    for n in graph.nodes:
        n.id = renum[n.id]
        n.next = [(None if c is None else renum[c], i) for c, i in n.next]
    graph.roots = [renum[r] for r in graph.roots]
    remap_saved(graph, {o: renum[rep.get(o, o)] for o in old_ids if rep.get(o, o) in renum})
    graph._reindex()


def _module_labels(result: Any, nodes: list) -> dict[int, str]:
    """id(node) -> the path of the innermost module call that made it (``model.fc1``), from the run's
    module-call log (nn/module.py ``call_log``: each call's range of node sequence numbers); a module no
    top-level name reaches is named by its class."""
    calls = (getattr(result, "logs", None) or {}).get("modules") or []
    if not calls:
        return {}
    from ..nn.module import module_path_names

    paths = module_path_names(getattr(result, "namespace", None) or {})
    entries = sorted((s, e, m) for s, e, m in calls if e is not None)
    seqs = sorted((n._seq, id(n)) for n in nodes if isinstance(getattr(n, "_seq", None), int))
    out: dict[int, str] = {}
    stack: list = []  # the open calls, outermost first (calls nest)
    i = 0
    for seq, nid in seqs:
        while i < len(entries) and entries[i][0] <= seq:
            while stack and stack[-1][1] <= entries[i][0]:
                stack.pop()
            stack.append(entries[i])
            i += 1
        while stack and stack[-1][1] <= seq:
            stack.pop()
        if stack:
            m = stack[-1][2]
            out[nid] = paths.get(id(m)) or type(m).__name__
    return out


#: most nodes a graph view shows (breadth-first from the roots); rendering is linear but not free
MAX_GRAPH_NODES = 10_000


def _fill_values(graph: Graph, order: list, log: Any) -> None:
    """--values: each node's value and gradient (autograd/values.py's ValueLog of the run), and the notes
    that say what is missing."""
    from ..autograd.values import tensor_summary

    missing = 0
    for fn, n in zip(order, graph.nodes):
        if n.kind == "accumulate":
            var = getattr(fn, "variable", None)
            if var is not None:
                n.value = tensor_summary(var)
                n.grad = tensor_summary(var._grad) if var._grad is not None else None
            got = log.grads_of(fn) if log is not None else None
            n.passes = got[2] if got is not None else 0
            continue
        values = log.value_of(fn) if log is not None else {}
        got = log.grads_of(fn) if log is not None else None
        nr = 0 if 0 in values or not values else min(values)
        n.output = nr
        n.value = values.get(nr)
        if got is not None:
            grads, _, n.passes = got
            n.grad = grads[nr] if nr < len(grads) else None
            if n.value is None and n.grad is not None:  # not recorded at creation: its shape from the grad
                n.value = {"dtype": n.grad["dtype"], "shape": n.grad["shape"]}
        if n.value is None:
            missing += 1
    if log is None or not log.passes:
        graph.notes.append("--values: no backward ran, so the nodes show their values only (a gradient needs "
                           "a backward: the file's own, or --backward NAME)")
    if missing:
        graph.notes.append(f"--values: {missing} node(s) show no value: their result was made where gradcli "
                           "does not record one")


def build_graph(result: Any, roots: Optional[list[str]] = None, hide: frozenset[str] = frozenset(),
                values: bool = False, depth: Optional[int] = None) -> Graph:
    """Walk the graph of ``result`` (a RunResult) from its roots; see the module doc.

    ``values``: label nodes with their values and gradients (the run must have had RunOptions.values).
    ``depth``: draw modules at that depth as one node each (:func:`collapse_modules`).

    Raises UsageProblem when a ``--root`` name is not a tensor of the file.
    """
    by_fn, by_var, tensors = _tensor_map(result)
    graph = Graph(file=result.file, error=result.error)
    start: list[Any] = []
    if roots:
        for name in roots:
            t = tensors.get(name)
            if t is None and result.error is not None:  # the file stopped before binding it: its error says why
                graph.notes.append(f"{name} was not bound to a tensor when the file stopped")
                continue
            if t is None:
                known = ", ".join(tensors) or "none"
                raise UsageProblem(f"--root {name}: the file has no tensor named {name!r}",
                                   f"Tensors at the end of the run: {known}.")
            fn = _grad_fn(t)
            if fn is None:
                acc = getattr(t, "_acc", None)
                node = acc() if callable(acc) else None
                if node is None:
                    why = "it does not require grad" if not t.requires_grad else "it is a leaf that no " \
                          "operation has used yet"
                    graph.notes.append(f"{name} has no graph: {why}")
                    continue
                fn = node
            start.append(fn)
    else:
        start = [fn for _, fn in _default_roots(result)]
        if not start and result.error is None:
            graph.notes.append("no tensor of the file has a grad_fn: there is no graph to show")

    keep: dict[int, Any] = {}  # id -> node object (keeps ids unique while we work)
    order: list[Any] = []
    queue: deque = deque()
    for fn in start:
        if id(fn) not in keep:
            keep[id(fn)] = fn
            order.append(fn)
            queue.append(fn)
    truncated = False
    while queue and not truncated:
        fn = queue.popleft()
        for child, _ in _next_edges(fn):
            if child is not None and id(child) not in keep:
                if len(order) >= MAX_GRAPH_NODES:  # a file can build 10^7 nodes: show the nearest ones
                    truncated = True
                    break
                keep[id(child)] = child
                order.append(child)
                queue.append(child)
    if truncated:
        graph.notes.append(f"the graph has more than {MAX_GRAPH_NODES:,} nodes: showing the {MAX_GRAPH_NODES:,} "
                           "nearest the roots (edges to the others are left out)")

    numbering = {id(fn): i for i, fn in enumerate(order)}
    graph.node_ids = numbering
    by_tensor: dict[int, list[str]] = {}
    for name, t in tensors.items():
        by_tensor.setdefault(id(t), []).append(name)
    modules = _module_labels(result, order)
    for fn in order:
        kind = _node_kind(fn)
        if kind == "accumulate":
            var = getattr(fn, "variable", None)
            names = list(by_var.get(id(var), [])) if var is not None else []
            shape = [int(s) for s in var.shape] if var is not None else None
        else:
            names = list(by_fn.get(id(fn), []))
            shape = None
        line = getattr(fn, "_line", None)
        graph.nodes.append(GraphNode(
            id=numbering[id(fn)],
            name=type(fn).__name__,
            tensor=names[0] if names else None,
            names=names,
            line=int(line) if isinstance(line, int) else None,
            seq=fn._seq if kind != "accumulate" and isinstance(getattr(fn, "_seq", None), int) else None,
            kind=kind,
            saved=_saved_of(fn, numbering[id(fn)], numbering, by_tensor, names if kind != "accumulate" else []),
            next=[(numbering.get(id(c)) if c is not None else None, i) for c, i in _next_edges(fn)],
            shape=shape,
            module=modules.get(id(fn)) if kind != "accumulate" else None,
        ))
    graph.roots = [numbering[id(fn)] for fn in start if id(fn) in numbering]
    graph.roots = list(dict.fromkeys(graph.roots))
    graph._reindex()
    graph.modules = {p: c for p, c in _module_classes(result).items() if any(
        n.module is not None and (n.module == p or n.module.startswith(p + ".")) for n in graph.nodes)}
    if values and graph.nodes:
        _fill_values(graph, order, (getattr(result, "logs", None) or {}).get("values"))
    graph.values = values
    if hide:
        _splice(graph, hide)
    if depth is not None:
        collapse_modules(graph, depth)
    if hide or depth is not None:
        graph.node_ids = {}  # renumbered
    return graph


def _splice(graph: Graph, hide: frozenset[str]) -> None:
    """Remove hidden nodes; edges into them are replaced by their own edges (iteratively)."""
    hidden_kinds = {"accumulate" if h == "accumulate" else "view" for h in hide}
    hidden = {n.id for n in graph.nodes if n.kind in hidden_kinds}
    if not hidden:
        return
    resolved: dict[int, list[tuple[Optional[int], int]]] = {}

    def resolve(node_id: int) -> list[tuple[Optional[int], int]]:
        # post-order over hidden nodes with an explicit stack
        stack = [(node_id, False)]
        while stack:
            nid, expanded = stack.pop()
            if nid in resolved:
                continue
            kids = [c for c, _ in graph.node(nid).next if c is not None and c in hidden and c not in resolved]
            if not expanded and kids:
                stack.append((nid, True))
                stack.extend((k, False) for k in kids)
                continue
            out: list[tuple[Optional[int], int]] = []
            for c, i in graph.node(nid).next:
                if c is None:
                    continue
                if c in hidden:
                    out.extend(resolved.get(c, []))
                else:
                    out.append((c, i))
            resolved[nid] = out
        return resolved[node_id]

    for n in graph.nodes:
        if n.id in hidden:
            continue
        new_next: list[tuple[Optional[int], int]] = []
        for c, i in n.next:
            if c is not None and c in hidden:
                new_next.extend(resolve(c))
            else:
                new_next.append((c, i))
        n.next = list(dict.fromkeys(new_next))
    new_roots: list[int] = []
    for r in graph.roots:
        if r in hidden:
            new_roots.extend(c for c, _ in resolve(r) if c is not None)
        else:
            new_roots.append(r)
    graph.roots = list(dict.fromkeys(new_roots))
    graph.nodes = [n for n in graph.nodes if n.id not in hidden]
    # renumber densely, keeping discovery order
    renum = {n.id: i for i, n in enumerate(graph.nodes)}
    for n in graph.nodes:
        n.id = renum[n.id]
        n.next = [(None if c is None else renum[c], i) for c, i in n.next]
    graph.roots = [renum[r] for r in graph.roots]
    remap_saved(graph, renum)
    graph._reindex()


def graph_document(graph: Graph) -> dict:
    """The ``gradcli.graph/3`` JSON object (SPEC §5); ``error``: the file's own error (null when it ran),
    the graph then being what the file had built when it stopped.  With ``--values`` each node also has
    ``value`` and ``grad`` (:func:`gradcli.autograd.values.summary` objects or null) and ``passes``; version 2
    added them (version 1 had no such fields, the rest is unchanged)."""
    from .records import error_record

    err = getattr(graph, "error", None)
    return {
        "schema": SCHEMA,
        "error": None if err is None else error_record(err),
        "roots": list(graph.roots),
        **({"modules": dict(graph.modules)} if graph.modules else {}),
        "nodes": [
            {
                "id": n.id,
                "name": n.name,
                "tensor": n.tensor,
                "line": n.line,
                **({"module": n.module} if n.module is not None else {}),
                **({"members": n.members} if n.kind == "module" else {}),
                "saved": [_saved_record(s) for s in n.saved],
                "next": [[c, i] for c, i in n.next],
                **({"value": n.value, "grad": n.grad, "passes": n.passes,
                    **({"output": n.output} if n.output else {})} if graph.values else {}),
            }
            for n in graph.nodes
        ],
    }


def _saved_record(s: SavedInfo) -> dict:
    """A saved tensor in ``gradcli.graph/3``: name, shape, freed; ``is`` (what it is: :class:`SavedInfo`) when
    known, ``version`` ([at save, now]) when gradcli tracks it."""
    rec: dict = {"name": s.name, "shape": s.shape, "freed": s.freed}
    if s.is_kind is not None:
        rec["is"] = {"kind": s.is_kind, "node": s.source, "output": s.output, "tensor": s.tensor,
                     "view_of": s.view_of}
    if s.version is not None and s.version_now is not None:
        rec["version"] = [s.version, s.version_now]
    return rec


def output_format(fmt: Optional[str], output: Optional[str]) -> str:
    """The format to produce from ``--format`` and the ``--output`` extension.

    ``.svg``/``.png`` give 'svg'/'png' (rendered from DOT; ``--format`` may
    only be dot then); an explicit ``--format`` wins over other extensions.
    """
    if output is None:
        return fmt or "tree"
    ext = os.path.splitext(output)[1].lower()
    by_ext = _EXTENSIONS.get(ext)
    if by_ext in ("svg", "png"):
        if fmt not in (None, "dot"):
            raise UsageProblem(f"--format {fmt} cannot be written as {ext}",
                               f"{ext} images are drawn from the DOT form: drop --format or use --format dot.")
        return by_ext
    if fmt is not None:
        return fmt
    if by_ext is None:
        raise UsageProblem(f"--output {output}: cannot tell the format from the extension {ext or '(none)'}",
                           "Use .dot, .mmd, .json, .txt, .svg or .png, or pass --format.")
    return by_ext


def check_output_path(path: Optional[str]) -> None:
    """Fail early (before running the file) when ``--output``'s folder does not exist."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageProblem(f"--output {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise UsageProblem(f"--output {path} is a directory; give a file name such as graph.svg")


def check_output_not_input(path: Optional[str], source: str) -> None:
    """Refuse an ``--output`` that resolves to an input: the input file, standard input, another open input
    (``/dev/stdin``, ``/proc/self/fd/N``: app/outpaths.py); gradcli never writes its input."""
    from .outpaths import refuse_input

    refuse_input(path, source, "--output", "the graph")


def _unnamed_file(folder: str) -> Optional[int]:
    """A file in ``folder`` without a name (Linux ``O_TMPFILE``): killed mid-write, nothing is left behind."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None:
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY, 0o666)
    except OSError:  # a file system without O_TMPFILE support
        return None


def write_atomic(path: str, data: bytes, option: str = "--output") -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    ``option`` names the command-line option in the UsageProblem (exit 2) raised when writing fails.

    The temporary file is unnamed while it is written (``O_TMPFILE`` where the system has it), and gets
    a unique name only for the instant of the rename: a gradcli killed mid-write leaves the old
    ``path`` intact and no temporary file; parallel gradcli processes never share a name.

    A symbolic link is followed (the link keeps pointing at the new file), and a ``path`` that is not a
    regular file -- a FIFO or a device such as ``/dev/stdout`` -- is written into, not replaced: a rename
    over it would delete the node (as root, ``/dev/full`` itself).
    """
    try:
        mode = os.stat(path).st_mode  # follows links, also /proc's links to pipes (/dev/stdout)
    except OSError:  # does not exist yet
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise UsageProblem(f"{option} {path}: cannot write: {exc.strerror or exc}") from None
        return
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise UsageProblem(f"{option} {path}: the folder {folder} does not exist")
    tmp: Optional[str] = None
    fd = _unnamed_file(folder)
    try:
        if fd is None:
            fd, tmp = tempfile.mkstemp(prefix=".gradcli-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageProblem(f"{option} {path}: cannot write in {folder}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            if tmp is None:
                name = os.path.join(folder, f".gradcli-{os.getpid()}-{os.urandom(6).hex()}.tmp")
                proc = os.open("/proc", os.O_RDONLY)
                try:  # linkat(AT_SYMLINK_FOLLOW) of /proc/self/fd/N: how an O_TMPFILE file gets a name
                    os.link(f"self/fd/{fh.fileno()}", name, src_dir_fd=proc, follow_symlinks=True)
                finally:
                    os.close(proc)
                tmp = name
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            _remove_quietly(tmp)
        raise UsageProblem(f"{option} {path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        if tmp is not None:
            _remove_quietly(tmp)
        raise


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


#: the renderer a pip install brings (a dependency): a port of Graphviz's ``dot`` command line
BUNDLED_DOT = "graphviz-pure"


def dot_program() -> Optional[list[str]]:
    """The ``dot`` command to run: Graphviz's own ``dot`` when it is on PATH, else the ``graphviz-pure``
    program that ``pip install gradcli`` installs beside the Python running gradcli (or on PATH); None
    when there is neither."""
    system = shutil.which("dot")
    if system is not None:
        return [system]
    for d in (Path(sys.executable).parent, Path(sys.prefix) / "bin", Path(sys.prefix) / "Scripts"):
        for name in (BUNDLED_DOT, BUNDLED_DOT + ".exe"):
            exe = d / name
            if exe.is_file() and os.access(exe, os.X_OK):
                return [str(exe)]
    found = shutil.which(BUNDLED_DOT)
    return [found] if found is not None else None


def render_with_dot(dot_source: str, image_format: str, timeout: float = 60.0) -> bytes:
    """Run ``dot -T<format>`` on ``dot_source`` (:func:`dot_program`: the system's Graphviz, else the
    bundled renderer); the image bytes.

    Raises ToolMissing when there is no renderer at all; a failing ``dot`` is a bug of the DOT text
    gradcli wrote, so it raises RuntimeError (exit 70).
    """
    exe = dot_program()
    if exe is None:
        raise ToolMissing(
            "dot", f"to draw .{image_format} files",
            f"Reinstall gradcli (pip install -e .) to get its renderer ({BUNDLED_DOT}), or install Graphviz "
            "(e.g. apt-get install graphviz, brew install graphviz), or write the DOT text with --output "
            "graph.dot / --format dot.",
        )
    proc = subprocess.run([*exe, f"-T{image_format}"], input=dot_source.encode("utf-8"),
                          capture_output=True, timeout=timeout, check=False)
    if proc.returncode != 0 or not proc.stdout:
        raise RuntimeError(f"{Path(exe[0]).name} -T{image_format} failed (exit {proc.returncode}): "
                           f"{proc.stderr.decode('utf-8', 'replace').strip()[:500]}")
    return proc.stdout


def write_graph(graph: Graph, fmt: str, output: Optional[str], *, show_saved: bool, out: Any) -> None:
    """Produce ``fmt`` and write it to ``output`` (atomically) or to the console ``out``."""
    from .render import graphfmt

    if fmt in ("svg", "png"):
        data = render_with_dot(graphfmt.to_dot(graph, show_saved=show_saved), fmt)
        assert output is not None
        write_atomic(output, data)
        return
    if fmt not in _TEXT_FORMATS:  # pragma: no cover - typer's choice prevents it
        raise UsageProblem(f"unknown graph format {fmt!r}")
    if fmt == "tree" and output is None:
        out.print(graphfmt.to_tree_rich(graph, show_saved=show_saved, width=out.width), soft_wrap=True)
        return
    if fmt == "tree":
        text = graphfmt.to_tree_text(graph, show_saved=show_saved)
    elif fmt == "dot":
        text = graphfmt.to_dot(graph, show_saved=show_saved)
    elif fmt == "mermaid":
        text = graphfmt.to_mermaid(graph, show_saved=show_saved)
    else:
        from .render.jsonout import dumps

        text = dumps(graph_document(graph))
    if not text.endswith("\n"):
        text += "\n"
    if output is not None:
        write_atomic(output, text.encode("utf-8"))
        return
    out.file.write(text)
    out.file.flush()
