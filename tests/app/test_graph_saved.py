"""``gradcli graph --show-saved`` (issue 23 item 2): each saved tensor as its own node, named with PyTorch's
``_saved_`` field, tied to the node that saved it and to the tensor it *is* -- checked against live PyTorch
2.13 node for node (tests/app/graph_torch.py walks PyTorch's graph in gradcli's order): the field exists on
PyTorch's node, reading it fails exactly where gradcli says the tensor was freed or changed in place, and
otherwise gives a tensor of gradcli's shape that is the input / leaf / result / view gradcli names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graph_torch import REAL, run_torch, walk  # noqa: E402

from gradcli.cli import app  # noqa: E402

torch = pytest.importorskip("torch")

# retain_graph keeps every saved tensor readable, so each kind of "is" is checked on the PyTorch side too
KINDS = '''
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = torch.tensor([2.0, 2.0, 2.0])
h = x * c
v = h[1:]
e = v.exp()
w = x.view(3, 1)
z = (e * x[1:]).sum() + (w * w).sum() + (h * x).sum()
z.backward(retain_graph=True)
'''


def graph_json(path: Path, *args: str) -> dict:
    r = CliRunner().invoke(app, ["graph", str(path), "--format", "json", "--show-saved", *args])
    assert r.exit_code in (0, 1), r.stderr
    return json.loads(r.stdout)


def torch_saved(fn, name: str):
    if name.startswith("saved_tensors["):
        return fn.saved_tensors[int(name[len("saved_tensors["):-1])]
    return getattr(fn, name)


def same(t, u) -> bool:
    """``t`` is ``u``, or (a saved-tensor unpack hook's result is a new tensor object) its data, shared."""
    return t is u or (t.data_ptr() == u.data_ptr() and t.shape == u.shape and t.stride() == u.stride())


def check_against_torch(path: Path) -> dict:
    """Compare every saved tensor of gradcli's graph of ``path`` with PyTorch's; counts of what was checked."""
    doc = graph_json(path)
    ns, cap, _ = run_torch(path, keep_saved=True)
    order = walk([ns[doc["nodes"][r]["tensor"]].grad_fn for r in doc["roots"]])
    assert [n["name"] for n in doc["nodes"]] == [type(fn).__name__ for fn in order]
    counts = {"saved": 0, "raised": 0, "is": 0}
    for n, fn in zip(doc["nodes"], order):
        for s in n["saved"]:
            name = s["name"]
            assert not name.startswith("saved") or name.startswith("saved_tensors["), (n["name"], name)
            counts["saved"] += 1
            changed = "version" in s and s["version"][0] != s["version"][1]
            if s["freed"] or changed:
                with pytest.raises(RuntimeError, match="freed|second time" if s["freed"] else "inplace"):
                    torch_saved(fn, name)
                counts["raised"] += 1
                # what it was: the tensor PyTorch's node gave when the file made it (before the free)
                t = cap.saved.get(fn, {}).get(name)
                if t is None:
                    continue
            else:
                t = torch_saved(fn, name)
                assert list(t.shape) == s["shape"], (n["name"], name)
            what = s.get("is")
            if what is None:
                continue
            kind, node = what["kind"], what["node"]
            if kind == "result":
                assert t.grad_fn is fn and t.output_nr == what["output"]
            elif kind == "input":
                assert t.grad_fn is order[node] and t.output_nr == what["output"], (n["name"], name)
            elif kind == "leaf":
                assert t.grad_fn is None and t.requires_grad
                assert node is None or same(t, order[node].variable)
            else:
                assert not t.requires_grad
            if what["tensor"] is not None and kind != "result":
                assert same(t, ns[what["tensor"]]), (n["name"], name)
            if what["view_of"] is not None:
                assert t._base is ns[what["view_of"]]
            counts["is"] += 1
    return counts


def test_every_kind_is_pytorchs(tmp_path):
    path = tmp_path / "kinds.py"
    path.write_text(KINDS)
    counts = check_against_torch(path)
    assert counts["saved"] == counts["is"] >= 8
    doc = graph_json(path)
    kinds = {(s["name"], s["is"]["kind"], s["is"]["tensor"], s["is"]["view_of"])
             for n in doc["nodes"] for s in n["saved"]}
    # e = v.exp() saves its result; v * x[1:] saves both views; h * x saves x itself and h (a tensor with grad_fn)
    assert ("_saved_result", "result", "e", None) in kinds
    assert ("_saved_self", "input", "e", None) in kinds
    assert ("_saved_other", "input", None, "x") in kinds  # x[1:]: an unnamed view of the leaf
    assert ("_saved_other", "constant", "c", None) in kinds  # x * c: c needs no grad
    assert ("_saved_other", "leaf", "x", None) in kinds
    assert ("_saved_self", "input", "h", None) in kinds


@pytest.mark.parametrize("stem", sorted(p.stem for p in REAL.glob("*.py")))
def test_real_snippets_saved_tensors_are_pytorchs(stem):
    counts = check_against_torch(REAL / f"{stem}.py")
    assert counts["saved"] == 0 or counts["raised"] + counts["is"] > 0


def test_real_snippets_cover_freed_readable_and_changed():
    """Over the real snippets: freed tensors, readable ones with their identity, and one changed in place
    (the forum 169583 snippet modifies exp's saved output)."""
    totals = {"saved": 0, "raised": 0, "is": 0}
    for p in sorted(REAL.glob("*.py")):
        for k, v in check_against_torch(p).items():
            totals[k] += v
    assert totals["raised"] >= 3 and totals["is"] >= 20
    doc = graph_json(REAL / "qa_errors__forum_inplace_exp_output_169583.py")
    exp = next(n for n in doc["nodes"] if n["name"] == "ExpBackward0")
    assert exp["saved"][0]["version"] == [0, 1] and exp["saved"][0]["is"]["kind"] == "result"


def dot_of(path: Path) -> str:
    r = CliRunner().invoke(app, ["graph", str(path), "--format", "dot", "--show-saved"])
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_dot_and_mermaid_draw_saved_tensors_as_nodes(tmp_path):
    path = tmp_path / "kinds.py"
    path.write_text(KINDS)
    doc = graph_json(path)
    ids = {(n["name"], n["tensor"]): n["id"] for n in doc["nodes"]}
    exp = ids[("ExpBackward0", "e")]
    dot = dot_of(path)
    # ExpBackward0 saved its own result: a node tied to it, no "is" edge (it would be a loop)
    assert f's{exp}_0 [label="_saved_result\\n[2]\\n= the result e"' in dot
    assert f"s{exp}_0 -> n{exp} [style=dotted, dir=none];" in dot
    assert f"n{exp} -> s{exp}_0" not in dot
    mul = next(n for n in doc["nodes"] if n["name"] == "MulBackward0" and
               any(s["is"]["tensor"] == "e" for s in n["saved"]))
    k = next(i for i, s in enumerate(mul["saved"]) if s["is"]["tensor"] == "e")
    assert f'n{exp} -> s{mul["id"]}_{k} [style=dotted, color="#e69138", label="is", fontsize=9];' in dot
    r = CliRunner().invoke(app, ["graph", str(path), "--format", "mermaid", "--show-saved"])
    assert f"  s{exp}_0 -.- n{exp}" in r.stdout and f"  n{exp} -. is .-> s{mul['id']}_{k}" in r.stdout


def test_freed_saved_tensors_are_drawn_freed(tmp_path):
    path = tmp_path / "freed.py"
    path.write_text("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\n")
    dot = dot_of(path)
    assert dot.count('freed by backward\\n= x (leaf)", shape=box, style="dashed"') == 2
    r = CliRunner().invoke(app, ["graph", str(path), "--format", "mermaid", "--show-saved"])
    assert "  class s1_0,s1_1 freed" in r.stdout
    r = CliRunner().invoke(app, ["graph", str(path), "--show-saved"], env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert "saved: _saved_self (freed) = x (leaf), _saved_other (freed) = x (leaf)" in r.stdout


def test_saved_sources_follow_hide_and_depth(tmp_path):
    """--hide accumulate drops the leaf's node: the saved tensor keeps its name, its node is gone."""
    path = tmp_path / "kinds.py"
    path.write_text(KINDS)
    doc = graph_json(path, "--hide", "accumulate")
    names = [n["name"] for n in doc["nodes"]]
    for n in doc["nodes"]:
        for s in n["saved"]:
            if s["is"]["kind"] == "leaf":
                assert s["is"]["node"] is None and s["is"]["tensor"] == "x"
            elif s["is"]["node"] is not None:
                assert names[s["is"]["node"]] != "AccumulateGrad"
                assert s["is"]["kind"] != "input" or doc["nodes"][s["is"]["node"]]["id"] == s["is"]["node"]
