"""`gradcli graph`: the structure must be PyTorch's (data/graph_*.graph.json, recorded from
torch 2.13 by record_cli_cases.py), in every format; SVG/PNG through Graphviz's dot."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET

import pytest
from cli_helpers import DATA, case_path, run_installed

from gradcli.cli import app

DIAMOND = str(case_path("graph_diamond.py"))
TORCH_GRAPH = json.loads((DATA / "graph_diamond.graph.json").read_text())
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot program is not installed (apt-get install graphviz)")


def graph_json(runner, *args):
    r = runner.invoke(app, ["graph", DIAMOND, "--format", "json", *args])
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_json_structure_is_pytorchs(runner, graph_schema):
    doc = graph_json(runner)
    graph_schema.validate(doc)
    assert doc["roots"] == TORCH_GRAPH["roots"]
    got = [{"name": n["name"], "tensor": n["tensor"], "next": n["next"]} for n in doc["nodes"]]
    assert got == TORCH_GRAPH["nodes"]
    assert [n["id"] for n in doc["nodes"]] == list(range(len(doc["nodes"])))


def test_root_option(runner, graph_schema):
    doc = graph_json(runner, "--root", "c")
    graph_schema.validate(doc)
    assert [n["name"] for n in doc["nodes"]] == ["MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    assert [n["tensor"] for n in doc["nodes"]] == ["c", "a", "b"]
    doc = graph_json(runner, "--root", "c", "--root", "d")
    assert doc["roots"] == [0, 1]  # roots are numbered first
    assert [doc["nodes"][i]["tensor"] for i in doc["roots"]] == ["c", "d"]


def test_saved_tensors_are_freed_by_the_default_backward(runner):
    doc = graph_json(runner)
    mul = next(n for n in doc["nodes"] if n["name"] == "MulBackward0")
    assert len(mul["saved"]) == 2 and all(s["freed"] for s in mul["saved"])
    doc = graph_json(runner, "--retain-graph")
    mul = next(n for n in doc["nodes"] if n["name"] == "MulBackward0")
    assert [s["freed"] for s in mul["saved"]] == [False, False]
    assert [s["shape"] for s in mul["saved"]] == [[2], [2]]


def test_hide(runner):
    doc = graph_json(runner, "--hide", "views")
    names = [n["name"] for n in doc["nodes"]]
    assert "ViewBackward0" not in names and "TBackward0" not in names
    add = next(n for n in doc["nodes"] if n["name"] == "AddBackward0")
    mul_id = next(n["id"] for n in doc["nodes"] if n["name"] == "MulBackward0")
    assert [mul_id, 0] in add["next"]
    doc = graph_json(runner, "--hide", "accumulate,views")
    assert [n["name"] for n in doc["nodes"]] == ["SumBackward0", "AddBackward0", "MulBackward0"]


def test_tree_is_the_default(runner):
    r = runner.invoke(app, ["graph", DIAMOND, "--show-saved"])
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("SumBackward0  loss")
    assert any("MulBackward0  c" in l for l in lines)
    assert any("saved: " in l and "(freed)" in l for l in lines)
    assert sum("AccumulateGrad  a" in l for l in lines) == 2 and any("(see above)" in l for l in lines)


@pytest.mark.parametrize("width", [40, 60, 80])
def test_saved_and_value_rows_fit_the_width_under_a_parent(runner, width):
    """The rows under a node with children start after its ``│   `` (4 columns more than the node's own
    prefix): they wrap to what is left, so no line is wider than the terminal."""
    sample = str(DATA.parents[2] / "samples" / "checkpoint.py")
    r = runner.invoke(app, ["graph", sample, "--show-saved", "--values"], env={"NO_COLOR": "1", "COLUMNS": str(width)})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert any("_saved_self" in line for line in lines) and any("grad [" in line for line in lines)
    assert max(len(line) for line in lines) <= width, max(lines, key=len)


def test_dot_and_mermaid(runner):
    r = runner.invoke(app, ["graph", DIAMOND, "--format", "dot"])
    assert r.exit_code == 0 and r.stdout.startswith('digraph "gradcli" {')
    edges = sum(1 for l in r.stdout.splitlines() if "->" in l)
    assert edges == sum(1 for n in TORCH_GRAPH["nodes"] for c, _ in n["next"] if c is not None)
    r = runner.invoke(app, ["graph", DIAMOND, "--format", "mermaid"])
    assert r.exit_code == 0 and r.stdout.startswith("flowchart TB")
    assert "-->" in r.stdout and "MulBackward0<br/>c" in r.stdout


@pytest.mark.parametrize("ext, first", [(".dot", "digraph"), (".mmd", "flowchart"), (".json", "{"),
                                        (".txt", "SumBackward0")])
def test_output_text_files(runner, tmp_path, ext, first):
    target = tmp_path / f"graph{ext}"
    r = runner.invoke(app, ["graph", DIAMOND, "--output", str(target)])
    assert r.exit_code == 0 and r.stdout == ""
    assert target.read_text().startswith(first)
    assert sorted(os.listdir(tmp_path)) == [target.name]  # no temporary file left behind


@needs_dot
def test_real_svg_render_names_the_variables(tmp_path):
    target = tmp_path / "graph.svg"
    r = run_installed(["graph", DIAMOND, "-o", str(target)])
    assert r.returncode == 0, r.stderr
    root = ET.parse(target).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for word in ("SumBackward0", "MulBackward0", "AccumulateGrad", "a [2]", "b [2]"):
        assert word in texts, (word, texts)
    for name in ("loss", "c", "d"):  # "c" or "c, line 4"
        assert any(t == name or t.startswith(name + ", line ") for t in texts), (name, texts)
    assert sorted(os.listdir(tmp_path)) == ["graph.svg"]


@needs_dot
def test_real_png_render(tmp_path):
    target = tmp_path / "graph.png"
    r = run_installed(["graph", DIAMOND, "-o", str(target)])
    assert r.returncode == 0, r.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_pictures_without_a_system_graphviz(tmp_path, fmt):
    """Issue 19, must-have 9: no `dot` on PATH (an empty folder), and the renderer `pip install` brought
    (graphviz-pure, beside the Python running gradcli) draws the picture."""
    env = {"PATH": str(tmp_path)}  # an empty folder: no dot there
    target = tmp_path / f"g.{fmt}"
    r = run_installed(["graph", DIAMOND, "-o", str(target)], env=env)
    assert r.returncode == 0, r.stderr
    if fmt == "png":
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        return
    root = ET.parse(target).getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for word in ("SumBackward0", "MulBackward0", "AccumulateGrad", "a [2]", "b [2]"):
        assert word in texts, (word, texts)


@pytest.mark.parametrize("args, message", [
    (["--root", "nope"], "no tensor named 'nope'"),
    (["--hide", "leaves"], "unknown value 'leaves'"),
    (["--format", "mermaid", "-o", "x.png"], "cannot be written as .png"),
    (["-o", "graph.xyz"], "cannot tell the format"),
    (["-o", "/no/such/folder/g.dot"], "does not exist"),
])
def test_graph_invocation_errors_are_2(runner, args, message):
    r = runner.invoke(app, ["graph", DIAMOND, *args])
    assert r.exit_code == 2 and message in r.stderr


def test_failing_file_still_draws_what_was_built(runner):
    src = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\nz = y.sum()\nz.backward()\nz.backward()\n"
    r = runner.invoke(app, ["graph", "-"], input=src)
    assert r.exit_code == 1
    assert r.stdout.startswith("SumBackward0  z")
    assert "error: second_backward" in r.stderr
    r = runner.invoke(app, ["graph", "-", "--expect-error", "second_backward"], input=src)
    assert r.exit_code == 0


def test_no_graph(runner):
    r = runner.invoke(app, ["graph", "-"], input="x = torch.ones(2)\n")
    assert r.exit_code == 0 and "no tensor of the file has a grad_fn" in r.stdout


def test_nodes_carry_the_line_that_created_them(runner):
    """graph_diamond.py: c = a * b on line 4, d = ...t() on line 5, loss on line 6 (the file itself)."""
    doc = graph_json(runner)
    lines = {n["tensor"]: n["line"] for n in doc["nodes"] if n["name"] != "AccumulateGrad" and n["tensor"]}
    assert lines == {"c": 4, "d": 5, "loss": 6}
