"""Module groups in ``gradcli graph`` (issue 23, must-have 4): every node made inside ``module(x)`` is drawn in
a box per module path (``model.layer1``), nested by path; ``--depth N`` draws the modules at depth N as one
node each.

The module of each node is checked against live PyTorch 2.13 on real snippets (tests/app/data/graph_real,
copies of shared/conformance/real_code): global forward pre-/post-hooks keep the stack of running modules,
and a TorchFunctionMode notes, for every node a result brings (and the nodes behind it not seen yet, made
inside a C++ composite such as linear's TBackward0), the innermost module running then; the graph is walked
from the same roots in gradcli's order (tests/app/graph_torch.py), so node *i* is node *i*.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graph_torch import PRELUDE, REAL, walk  # noqa: E402

from gradcli.app.render.graphfmt import module_boxes  # noqa: E402
from gradcli.cli import app  # noqa: E402

SNIPPETS = ["nn_optim__yt_tinymodel_sgd", "nn_optim__coddykit_training_step", "nn_optim__polynomial_module"]


def graph(path: Path, *args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, ["graph", str(path), *args])
    return r.exit_code, r.stdout


def torch_modules(path: Path) -> tuple[dict, dict]:
    """(the file's namespace under PyTorch, node -> path of the innermost module call that made it)."""
    torch = pytest.importorskip("torch")
    from torch.overrides import TorchFunctionMode

    stack: list = []
    made: dict = {}

    def seen(out) -> None:
        todo = [out]
        while todo:
            t = todo.pop()
            if isinstance(t, (tuple, list)):
                todo.extend(t)
            elif isinstance(t, torch.Tensor) and t.grad_fn is not None:
                nodes = [t.grad_fn]
                while nodes:
                    n = nodes.pop()
                    if n is None or n in made or hasattr(n, "variable"):
                        continue
                    made[n] = stack[-1] if stack else None
                    nodes.extend(c for c, _ in n.next_functions)

    class Watch(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            seen(out)
            return out

    def enter(m, args) -> None:
        stack.append(m)

    def leave(m, args, out) -> None:  # (None: the output stays the module's)
        seen(out)
        stack.pop()

    mm = torch.nn.modules.module
    pre = mm.register_module_forward_pre_hook(enter)
    post = mm.register_module_forward_hook(leave)
    g: dict = {"__name__": "__main__"}
    try:
        with contextlib.redirect_stdout(io.StringIO()), Watch():
            try:
                exec(compile(PRELUDE + path.read_text(encoding="utf-8"), str(path), "exec"), g)
            except Exception:  # noqa: BLE001 - the snippet's own error: the graph is what it built
                pass
    finally:
        pre.remove()
        post.remove()
    paths = {}
    for name, v in g.items():
        if isinstance(v, torch.nn.Module):
            for sub, m in v.named_modules(prefix=name):
                paths.setdefault(m, sub)
    return g, {n: (None if m is None else paths.get(m, type(m).__name__)) for n, m in made.items()}


@pytest.mark.torch
@pytest.mark.parametrize("stem", SNIPPETS)
def test_each_nodes_module_is_pytorchs(stem):
    path = REAL / f"{stem}.py"
    code, out = graph(path, "--format", "json")
    assert code in (0, 1)
    doc = json.loads(out)
    ns, made = torch_modules(path)
    roots = [ns[doc["nodes"][r]["tensor"]].grad_fn for r in doc["roots"]]
    order = walk(roots)
    assert [n["name"] for n in doc["nodes"]] == [type(fn).__name__ for fn in order]
    checked = 0
    for n, fn in zip(doc["nodes"], order):
        if n["name"] == "AccumulateGrad":
            assert "module" not in n
            continue
        assert n.get("module") == made.get(fn), (n, made.get(fn))
        checked += n.get("module") is not None
    assert checked >= 2  # the snippet's modules made nodes
    for p, cls in doc["modules"].items():
        top = p.split(".")[0]
        m = ns[top].get_submodule(p.partition(".")[2]) if top in ns else None
        assert m is None or type(m).__name__ == cls, (p, cls)


@pytest.mark.parametrize("stem", SNIPPETS)
def test_dot_draws_a_box_per_module_path(stem):
    path = REAL / f"{stem}.py"
    code, dot = graph(path, "--format", "dot")
    doc = json.loads(graph(path, "--format", "json")[1])
    used = {n["module"] for n in doc["nodes"] if "module" in n}
    for p in used:
        assert f'label="{p} (' in dot or f'label="{p}";' in dot, p
    # every node with a module sits inside that module's cluster (the innermost one opened before it)
    open_boxes: list[str] = []
    for line in dot.splitlines():
        s = line.strip()
        m = re.match(r'label="([^"(]+?)(?: \(([^)]*)\))?"; labeljust', s)
        if s.startswith("subgraph cluster_"):
            open_boxes.append("?")
        elif m and open_boxes and open_boxes[-1] == "?":
            open_boxes[-1] = m.group(1)
        elif s == "}" and open_boxes:
            open_boxes.pop()
        else:
            node = re.match(r"n(\d+) \[label=", s)
            if node:
                n = doc["nodes"][int(node.group(1))]
                assert (open_boxes[-1] if open_boxes else None) == n.get("module"), (n, open_boxes)
    # nesting follows the path: model.layer1's box is inside model's
    assert dot.count("subgraph cluster_") == len({".".join(p.split(".")[:k]) for p in used
                                                  for k in range(1, p.count(".") + 2)})


def test_depth_collapses_modules_into_one_node():
    path = REAL / "nn_optim__yt_tinymodel_sgd.py"
    full = json.loads(graph(path, "--format", "json")[1])
    code, out = graph(path, "--format", "json", "--depth", "1")
    doc = json.loads(out)
    modules = [n for n in doc["nodes"] if "members" in n]
    assert [n["name"] for n in modules] == ["model"]
    inside = [n for n in full["nodes"] if n.get("module", "").split(".")[0] == "model"]
    assert modules[0]["members"] == len(inside)
    # the rest of the graph is unchanged, and the edges into the module come from the leaves it used
    assert len(doc["nodes"]) == len(full["nodes"]) - len(inside) + 1
    into = {doc["nodes"][c]["name"] for c, _ in modules[0]["next"]}
    assert into == {"AccumulateGrad"}
    code2, out2 = graph(path, "--format", "json", "--depth", "2")
    doc2 = json.loads(out2)
    assert sorted(n["name"] for n in doc2["nodes"] if "members" in n) == ["model.layer1", "model.layer2",
                                                                           "model.relu"]
    code3, tree = graph(path, "--depth", "1")
    assert "model  " in tree and f"{len(inside)} nodes" in tree
    code4, mer = graph(path, "--format", "mermaid")
    assert 'subgraph m1["model (TinyModel)"]' in mer and '["model.layer1 (Linear)"]' in mer


def test_depth_must_be_positive():
    path = REAL / "nn_optim__coddykit_training_step.py"
    code, _ = graph(path, "--depth", "0")
    assert code == 2


def test_module_boxes_nest_by_path():
    from types import SimpleNamespace as N

    g = N(nodes=[N(id=0, module="a.b.c"), N(id=1, module="a"), N(id=2, module=None), N(id=3, module="a.d")])
    members, children = module_boxes(g)
    assert members == {"a": [1], "a.b": [], "a.b.c": [0], "a.d": [3]}
    assert children[None] == ["a"] and children["a"] == ["a.b", "a.d"] and children["a.b"] == ["a.b.c"]
