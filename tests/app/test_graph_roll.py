"""Rolled loops in graph pictures (issue 23, must-have 3): a loop's repeated iterations are drawn once with
``× N``, the recurrence as a dashed "previous iteration" edge; on by default for pictures of graphs above
:data:`~gradcli.app.graph.ROLL_ABOVE` nodes, ``--unroll`` draws every node.

Checked against live PyTorch 2.13 on real snippets (tests/conformance/real_snippets: the RNNCell and
LSTMCell docs loops, the old autograd tutorial's ``while y.data.norm() < 1000: y = y * 2``, a blog's copy of
it): the same file runs under ``set_detect_anomaly(True)``, so every PyTorch node knows the file line that
made it (``metadata["traceback_"]``) and its creation order (``_sequence_nr()``); walked from the same roots
in gradcli's order, node *i* is node *i*.  Each rolled node must stand for PyTorch nodes of one class and one
line, one per iteration; and the iterations must be PyTorch's: every node of iteration *k* was made before
every node of iteration *k + 1*.
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
from graph_torch import PRELUDE, walk  # noqa: E402

from gradcli.app.graph import ROLL_ABOVE, build_graph, roll_loops  # noqa: E402
from gradcli.cli import app  # noqa: E402
from gradcli.lang.result import RunOptions  # noqa: E402
from gradcli.lang.run import run_file  # noqa: E402

SNIPPETS = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets"
CASES = {  # snippet -> (loop line, iterations)
    "docs__nn_rnncell_doc": (9, 6),
    "docs__nn_lstmcell_doc": (10, 2),
    "tutorial__blitz_autograd_old": (59, 9),
    "tutorial__abgoswam_autograd_tutorial2": (22, 8),
}


def _graphs(stem: str):
    path = SNIPPETS / f"{stem}.py"
    src = path.read_text(encoding="utf-8")
    result = run_file(src, path.name, RunOptions())
    full = build_graph(result)
    return path, src, full, roll_loops(full, src, above=0)


def _torch_nodes(path: Path, roots: list[str]) -> list:
    torch = pytest.importorskip("torch")
    g: dict = {"__name__": "__main__"}
    torch.autograd.set_detect_anomaly(True)
    torch.manual_seed(0)  # as the oracle runs a file (gradcli's --seed default)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                exec(compile(PRELUDE + path.read_text(encoding="utf-8"), str(path), "exec"), g)
            except Exception:  # noqa: BLE001 - the snippet's own error: the graph is what it built
                pass
    finally:
        torch.autograd.set_detect_anomaly(False)
    return walk([g[name].grad_fn for name in roots]), len(PRELUDE.splitlines())


def _line(fn, path: Path, shift: int):
    for frame in reversed(fn.metadata.get("traceback_", [])):
        m = re.match(r'\s*File "(.*)", line (\d+)', frame)
        if m and m.group(1) == str(path):
            return int(m.group(2)) - shift
    return None


@pytest.mark.torch
@pytest.mark.parametrize("stem", sorted(CASES))
def test_rolled_nodes_are_pytorchs_iterations(stem):
    path, src, full, rolled = _graphs(stem)
    loop_line, n_iter = CASES[stem]
    assert rolled is not full and f"the loop at line {loop_line} (× {n_iter})" in rolled.notes[-1]
    order, shift = _torch_nodes(path, [full.node(r).tensor for r in full.roots])
    assert [n.name for n in full.nodes] == [type(fn).__name__ for fn in order]
    groups = [n for n in rolled.nodes if n.repeat]
    assert groups and all(n.repeat == n_iter and n.loop_line == loop_line for n in groups)
    per_iter: list[list[int]] = [[] for _ in range(n_iter)]
    for n in groups:
        fns = [order[i] for i in n.rolled]
        assert len(fns) == n_iter
        assert {type(fn).__name__ for fn in fns} == {n.name}
        assert {_line(fn, path, shift) for fn in fns} == {n.line}  # one line, PyTorch's
        for k, fn in enumerate(fns):
            per_iter[k].append(fn._sequence_nr())
    for k in range(n_iter - 1):  # iteration k was made, all of it, before iteration k + 1
        assert max(per_iter[k]) < min(per_iter[k + 1]), (k, per_iter[k], per_iter[k + 1])
    # nothing is lost: every node of the unrolled graph is drawn, once or in its group
    assert sorted(set(rolled.rolled_from)) == [n.id for n in full.nodes]


def test_the_recurrence_is_an_edge_from_the_previous_iteration():
    _, _, full, rolled = _graphs("tutorial__blitz_autograd_old")
    mul = next(n for n in rolled.nodes if n.repeat)
    assert mul.name == "MulBackward0" and mul.id in [c for c, _ in mul.next]  # y = y * 2: a self-edge
    assert mul.from_previous == [mul.id]
    from gradcli.app.render.graphfmt import to_dot, to_mermaid

    assert f'n{mul.id} -> n{mul.id} [style=dashed, label="previous iteration"' in to_dot(rolled)
    assert f"n{mul.id} -. previous iteration .-> n{mul.id}" in to_mermaid(rolled)


def test_on_by_default_above_the_size_and_unroll_draws_all(tmp_path):
    runner = CliRunner()
    f = SNIPPETS / "docs__nn_rnncell_doc.py"  # 40 nodes
    assert len(_graphs("docs__nn_rnncell_doc")[2].nodes) > ROLL_ABOVE
    dot = runner.invoke(app, ["graph", str(f), "--format", "dot"]).stdout
    assert "× 6 (the loop at line 9)" in dot and dot.count("[label=") == 10
    full = runner.invoke(app, ["graph", str(f), "--format", "dot", "--unroll"]).stdout
    assert "× 6" not in full and full.count("[label=") == 40
    # the tree and JSON always show every node (the tree folds chains its own way)
    doc = json.loads(runner.invoke(app, ["graph", str(f), "--format", "json"]).stdout)
    assert len(doc["nodes"]) == 40
    small = SNIPPETS / "tutorial__blitz_autograd_old.py"  # 19 nodes: drawn as they are
    assert "× " not in runner.invoke(app, ["graph", str(small), "--format", "dot"]).stdout


def test_a_loop_whose_iterations_differ_stays_unrolled():
    src = ("x = torch.ones(2, requires_grad=True)\ny = x\nfor i in range(6):\n    y = y * 2\n"
           "    if i == 2:\n        y = y.exp()\nz = y.sum()\n")
    result = run_file(src, "c.py", RunOptions())
    full = build_graph(result)
    assert roll_loops(full, src, above=0) is full  # the third iteration made one node more: no one pattern
