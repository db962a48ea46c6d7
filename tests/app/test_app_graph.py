"""The graph service on hand-made graphs (structure from the programs in the docstrings)."""

import json
import os
import shutil
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from app_fakes import FakeSaved, FakeTensor, node, result, simple_chain
from gradcli.app import graph as g
from gradcli.app.problems import ToolMissing, UsageProblem
from gradcli.app.render import graphfmt


def _doc_validator():
    schema = json.loads(resources.files("gradcli").joinpath("schemas/graph.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def chain_graph(**kw):
    x, y, s = simple_chain()
    return g.build_graph(result([("x", x), ("y", y), ("s", s)]), **kw)


def test_default_root_is_the_tensor_nothing_else_was_computed_from():
    graph = chain_graph()
    assert graph.roots == [0]
    names = [(n.name, n.tensor, n.line) for n in graph.nodes]
    assert names == [("SumBackward0", "s", 3), ("MulBackward0", "y", 2), ("AccumulateGrad", "x", None)]
    assert graph.nodes[1].next == [(2, 0), (None, 0)]
    assert graph.nodes[2].shape == [2]


def test_explicit_root_and_unknown_root():
    graph = chain_graph(roots=["y"])
    assert [n.name for n in graph.nodes] == ["MulBackward0", "AccumulateGrad"]
    with pytest.raises(UsageProblem, match="no tensor named 'nope'"):
        chain_graph(roots=["nope"])


def test_root_without_graph_is_a_note():
    c = FakeTensor([1.0])
    graph = g.build_graph(result([("c", c)]), roots=["c"])
    assert graph.nodes == [] and "does not require grad" in graph.notes[0]
    graph = g.build_graph(result([("c", c)]))
    assert graph.nodes == [] and graph.notes


def test_json_document_follows_graph_schema():
    doc = g.graph_document(chain_graph())
    _doc_validator().validate(doc)
    assert doc["roots"] == [0]
    assert doc["nodes"][1] == {"id": 1, "name": "MulBackward0", "tensor": "y", "line": 2,
                               "saved": [{"name": "_saved_self", "shape": None, "freed": True}],
                               "next": [[2, 0], [None, 0]]}


def diamond():
    """a = tensor(2., requires_grad=True); b = tensor(3., requires_grad=True); y = (a + b) * a"""
    a = FakeTensor(2.0, requires_grad=True)
    b = FakeTensor(3.0, requires_grad=True)
    add = node("AddBackward0", [(a.acc(), 0), (b.acc(), 0)], line=3)
    mul = node("MulBackward0", [(add, 0), (a.acc(), 0)], line=3, saved=[FakeSaved(()), FakeSaved(())])
    y = FakeTensor(10.0, grad_fn=mul)
    return result([("a", a), ("b", b), ("y", y)])


def test_diamond_shares_the_leaf_node_once():
    graph = g.build_graph(diamond())
    assert [n.name for n in graph.nodes] == ["MulBackward0", "AddBackward0", "AccumulateGrad", "AccumulateGrad"]
    tree = graphfmt.to_tree_text(graph)
    assert tree.count("AccumulateGrad  a") == 2 and tree.count("(see above)") == 1
    lines = tree.splitlines()
    assert lines[0] == "MulBackward0  y, line 3"
    assert lines[1] == "├── AddBackward0  line 3"
    assert lines[-1] == "└── AccumulateGrad  a []  (see above)"


def test_show_saved_in_tree():
    tree = graphfmt.to_tree_text(g.build_graph(diamond()), show_saved=True)
    assert "saved: _saved_self [], _saved_other []" in tree  # MulBackward0's fields, in its order
    tree = graphfmt.to_tree_text(chain_graph(), show_saved=True)
    assert "saved: _saved_self (freed)" in tree


def test_deep_chain_needs_no_recursion():
    x = FakeTensor(1.0, requires_grad=True)
    prev = (x.acc(), 0)
    for i in range(5000):
        prev = (node("MulBackward0", [prev], line=i + 1), 0)
    y = FakeTensor(1.0, grad_fn=prev[0])
    graph = g.build_graph(result([("x", x), ("y", y)]))
    assert len(graph.nodes) == 5001
    assert graphfmt.to_tree_text(graph).count("\n") == 5001
    assert len(graphfmt.to_dot(graph).splitlines()) > 10000
    g.build_graph(result([("x", x), ("y", y)]), hide=frozenset({"accumulate"}))


def test_hide_accumulate_and_views_splices_edges():
    """x leaf; v = x.view(2); t = v.t()-like; z = (t * 2).sum()"""
    x = FakeTensor([1.0, 2.0], requires_grad=True)
    view = node("ViewBackward0", [(x.acc(), 0)], line=2)
    tr = node("TBackward0", [(view, 0)], line=3)
    mul = node("MulBackward0", [(tr, 0), (None, 0)], line=4)
    z = FakeTensor(6.0, grad_fn=node("SumBackward0", [(mul, 0)], line=4))
    res = result([("x", x), ("z", z)])
    graph = g.build_graph(res, hide=frozenset({"views"}))
    assert [n.name for n in graph.nodes] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    assert graph.nodes[1].next == [(2, 0), (None, 0)]
    graph = g.build_graph(res, hide=frozenset({"views", "accumulate"}))
    assert [n.name for n in graph.nodes] == ["SumBackward0", "MulBackward0"]
    assert graph.nodes[1].next == [(None, 0)]
    _doc_validator().validate(g.graph_document(graph))


def test_mermaid_text():
    text = graphfmt.to_mermaid(chain_graph())
    lines = text.splitlines()
    assert lines[0] == "flowchart TB"
    assert '  n0["SumBackward0<br/>s, line 3"]' in lines
    assert '  n2(["AccumulateGrad<br/>x [2]"])' in lines
    assert "  n1 --> n0" in lines and "  n2 --> n1" in lines


def test_dot_text_and_escaping():
    dot = graphfmt.to_dot(chain_graph(), show_saved=True)
    assert dot.startswith('digraph "gradcli" {') and dot.rstrip().endswith("}")
    assert "n1 -> n0;" in dot and "n2 -> n1;" in dot
    assert 'label="MulBackward0\\ny, line 2"' in dot  # saved tensors are nodes of their own, not a caption
    assert 's1_0 [label="_saved_self\\nfreed by backward"' in dot and "s1_0 -> n1 [style=dotted" in dot
    assert graphfmt._dot_escape('a"b\\c') == 'a\\"b\\\\c'


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")
def test_svg_through_dot_names_the_variables(tmp_path):
    data = g.render_with_dot(graphfmt.to_dot(chain_graph()), "svg")
    root = ET.fromstring(data)
    assert root.tag.endswith("svg")
    texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for word in ("SumBackward0", "MulBackward0", "AccumulateGrad", "s, line 3", "y, line 2", "x [2]"):
        assert word in texts


def test_missing_dot_is_a_clear_error(monkeypatch, tmp_path):
    """Neither a system Graphviz nor the bundled renderer: the error names the program and both ways out."""
    monkeypatch.setattr(g.shutil, "which", lambda name: None)
    monkeypatch.setattr(g.sys, "executable", str(tmp_path / "python"), raising=False)
    monkeypatch.setattr(g.sys, "prefix", str(tmp_path), raising=False)
    assert g.dot_program() is None
    with pytest.raises(ToolMissing, match="'dot'") as info:
        g.render_with_dot("digraph {}", "svg")
    assert "Graphviz" in info.value.hint and "graphviz-pure" in info.value.hint


def test_system_dot_is_used_when_present(monkeypatch, tmp_path):
    """The machine probe both ways: `dot` on PATH wins; without it, the bundled renderer."""
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho '<svg xmlns=\"http://www.w3.org/2000/svg\"/>'\n")
    fake.chmod(0o755)
    monkeypatch.setattr(g.shutil, "which", lambda name: str(fake) if name == "dot" else None)
    assert g.dot_program() == [str(fake)]
    assert g.render_with_dot("digraph {}", "svg").startswith(b"<svg")
    monkeypatch.setattr(g.shutil, "which", lambda name: None)
    bundled = g.dot_program()
    assert bundled is not None and bundled[0].endswith(g.BUNDLED_DOT)
    data = g.render_with_dot(graphfmt.to_dot(chain_graph()), "svg")
    assert ET.fromstring(data).tag.endswith("svg")


def test_output_format_from_extension():
    assert g.output_format(None, None) == "tree"
    assert g.output_format("dot", None) == "dot"
    assert g.output_format(None, "g.svg") == "svg"
    assert g.output_format(None, "G.PNG") == "png"
    assert g.output_format("dot", "g.svg") == "svg"
    assert g.output_format(None, "g.mmd") == "mermaid"
    assert g.output_format(None, "g.json") == "json"
    assert g.output_format("json", "g.out") == "json"
    with pytest.raises(UsageProblem):
        g.output_format("mermaid", "g.png")
    with pytest.raises(UsageProblem, match="cannot tell the format"):
        g.output_format(None, "graph.xyz")


def test_write_atomic(tmp_path):
    target = tmp_path / "g.dot"
    target.write_text("old")
    g.write_atomic(str(target), b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["g.dot"]
    with pytest.raises(UsageProblem, match="does not exist"):
        g.write_atomic(str(tmp_path / "no" / "g.dot"), b"x")



def test_nodes_made_inside_a_module_call_carry_the_module_path():
    from gradcli.app.graph import build_graph, graph_document
    from gradcli.lang.run import run_file

    src = (
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc1 = nn.Linear(3, 4)\n"
        "        self.act = nn.ReLU()\n"
        "    def forward(self, x):\n"
        "        return self.act(self.fc1(x)) * 2\n"
        "model = Net()\n"
        "loss = model(torch.ones(2, 3)).sum()\n"
        "h = nn.Tanh()(loss)\n"
    )
    g = build_graph(run_file(src, "m.py"))
    by_name = {}
    for n in g.nodes:
        by_name.setdefault(n.name, []).append(n.module)
    assert by_name["AddmmBackward0"] == ["model.fc1"] and by_name["TBackward0"] == ["model.fc1"]
    assert by_name["ReluBackward0"] == ["model.act"]
    assert by_name["MulBackward0"] == ["model"]  # made in Net.forward itself
    assert by_name["SumBackward0"] == [None]  # outside any module call
    assert by_name["TanhBackward0"] == ["Tanh"]  # a module no top-level name reaches: its class
    assert all(m is None for m in by_name["AccumulateGrad"])
    doc = graph_document(g)
    assert {n.get("module") for n in doc["nodes"]} == {None, "model", "model.fc1", "model.act", "Tanh"}
