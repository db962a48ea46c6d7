"""``gradcli compare`` and its differ (:func:`gradcli.app.compare.diff_documents`).

The differ implements the conformance README's rules; it is checked here on
hand-made pairs of ``gradcli.run/1`` documents (a file on which gradcli and
PyTorch disagree is hard to make on purpose), then the command runs for real:
an identical file exits 0, a file using an op gradcli lacks exits 1 with the
differences, ``--json`` follows gradcli.compare/1, and without PyTorch the
command exits 2 naming the torch extra.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from casefiles import needs_torch
from typer.testing import CliRunner

from gradcli.app.compare import Comparison, Difference, compare_document, diff_documents
from gradcli.cli import app


def _doc(**changes) -> dict:
    doc = {
        "schema": "gradcli.run/1", "file": "f.py", "ok": True, "stdout": "tensor([2., 2.])\n",
        "tensors": [
            {"name": "x", "shape": [2], "dtype": "float32", "requires_grad": True, "is_leaf": True,
             "grad_fn": None, "retains_grad": False, "data": [1.0, 2.0], "grad": [6.0, 6.0]},
            {"name": "y", "shape": [], "dtype": "float64", "requires_grad": True, "is_leaf": False,
             "grad_fn": "SumBackward0", "retains_grad": False, "data": 3.0, "grad": None},
            {"name": "k", "shape": [2], "dtype": "int64", "requires_grad": False, "is_leaf": True,
             "grad_fn": None, "retains_grad": False, "data": [1, 2], "grad": None},
        ],
        "warnings": [{"kind": "non_leaf_grad", "line": 4, "message": "..."}],
        "error": None,
    }
    doc.update(changes)
    return doc


def _tensor(doc: dict, name: str) -> dict:
    return next(t for t in doc["tensors"] if t["name"] == name)


def _fields(diffs: list) -> list:
    return [(d.tensor, d.field) for d in diffs]


# --- the differ ----------------------------------------------------------------------------------------------
def test_identical_documents_have_no_differences():
    assert diff_documents(_doc(), _doc()) == []


def test_file_field_and_messages_are_not_compared():
    g = _doc(file="other.py")
    g["warnings"][0]["message"] = "different words"
    p = _doc(error={"kind": "shape", "line": 3, "col": 0, "message": "a", "hint": ""}, ok=False)
    g.update(error={"kind": "shape", "line": 3, "col": 7, "message": "b", "hint": "h"}, ok=False)
    assert diff_documents(g, p) == []


def test_ok_and_exit_status():
    p = _doc(ok=False, error={"kind": "runtime", "line": 2, "col": 0, "message": "m", "hint": ""})
    diffs = diff_documents(_doc(), p, gradcli_status=0)
    assert (None, "ok") in _fields(diffs)
    assert (None, "exit status") in _fields(diffs)
    assert (None, "error") in _fields(diffs)
    assert diff_documents(_doc(), _doc(), gradcli_status=1) == [Difference(None, "exit status", "1", "0")]


def test_error_kind_and_line():
    err = {"kind": "second_backward", "line": 9, "col": 0, "message": "m", "hint": ""}
    p = _doc(ok=False, error=err)
    g = _doc(ok=False, error=dict(err, kind="runtime"))
    [d] = diff_documents(g, p)
    assert d.field == "error" and d.gradcli.startswith("runtime (line 9)") and d.pytorch.startswith("second_backward")
    g = _doc(ok=False, error=dict(err, line=None))
    [d] = diff_documents(g, p)
    assert (d.field, d.gradcli, d.pytorch) == ("error line", "None", "9")


def test_warnings_are_a_multiset_of_kind_and_line():
    w = {"kind": "non_leaf_grad", "line": 4, "message": "..."}
    assert diff_documents(_doc(warnings=[w, dict(w, line=5)]), _doc(warnings=[dict(w, line=5), w])) == []
    diffs = diff_documents(_doc(warnings=[w, w]), _doc(warnings=[w]))
    assert _fields(diffs) == [(None, "warning")] and "×2" in diffs[0].gradcli
    diffs = diff_documents(_doc(warnings=[]), _doc(warnings=[dict(w, kind="other", line=None)]))
    assert diffs[0].pytorch == "other (after the file)" and diffs[0].gradcli == "—"


def test_stdout_numbers_within_float32_tolerance():
    # SPEC §2b: printed numbers compare within section 1's tolerances (a float32 .item() printed in full)
    assert diff_documents(_doc(stdout="499 50.97850799560547\n"), _doc(stdout="499 50.978511810302734\n")) == []
    [d] = diff_documents(_doc(stdout="499 50.9790\n"), _doc(stdout="499 50.9780\n"))
    assert d.field == "stdout line 1"
    [d] = diff_documents(_doc(stdout="loss 1.0\n"), _doc(stdout="Loss 1.0\n"))  # the text itself stays exact
    assert d.field == "stdout line 1"
    [d] = diff_documents(_doc(stdout="1.0 2.0\n"), _doc(stdout="1.0\n"))
    assert d.field == "stdout line 1"


def test_stdout_ignores_trailing_whitespace_only():
    assert diff_documents(_doc(stdout="a  \nb\n\n"), _doc(stdout="a\nb")) == []
    [d] = diff_documents(_doc(stdout="a\nb\nc\n"), _doc(stdout="a\nB\nc\n"))
    assert (d.field, d.gradcli, d.pytorch) == ("stdout line 2", "b", "B")
    [d] = diff_documents(_doc(stdout="a\n"), _doc(stdout="a\nb\n"))
    assert (d.field, d.gradcli, d.pytorch) == ("stdout line 2", "—", "b")


def test_tensors_missing_extra_and_order():
    p = _doc()
    g = _doc(tensors=[p["tensors"][1], p["tensors"][0]])
    assert _fields(diff_documents(g, p)) == [("k", "tensor"), (None, "tensor order")]
    extra = dict(p["tensors"][0], name="z")
    assert _fields(diff_documents(_doc(tensors=p["tensors"] + [extra]), p)) == [("z", "tensor")]


@pytest.mark.parametrize("field,value", [("shape", [1, 2]), ("dtype", "float64"), ("requires_grad", False),
                                         ("is_leaf", False), ("grad_fn", "MulBackward0"), ("retains_grad", True)])
def test_each_flag_is_compared(field, value):
    g = _doc()
    _tensor(g, "x")[field] = value
    assert ("x", field) in _fields(diff_documents(g, _doc()))


def test_float_tolerances_follow_pytorchs_dtype():
    g = _doc()
    _tensor(g, "x")["data"] = [1.0 + 5e-6, 2.0]  # float32: rtol 1e-5
    assert diff_documents(g, _doc()) == []
    _tensor(g, "x")["data"] = [1.0 + 5e-5, 2.0]
    [d] = diff_documents(g, _doc())
    assert (d.tensor, d.field, d.detail) == ("x", "data", "1 of 2 elements differ")
    _tensor(g, "x")["data"] = [1.0, 2.0]
    _tensor(g, "y")["data"] = 3.0 + 1e-9  # float64: rtol 1e-10
    assert ("y", "data") in _fields(diff_documents(g, _doc()))
    _tensor(g, "y")["data"] = 3.0 + 1e-11
    assert diff_documents(g, _doc()) == []


def test_non_finite_ints_and_bools():
    p = _doc()
    _tensor(p, "x")["data"] = ["nan", "-inf"]
    g = copy.deepcopy(p)
    assert diff_documents(g, p) == []
    _tensor(g, "x")["data"] = ["nan", "inf"]
    assert ("x", "data") in _fields(diff_documents(g, p))
    g = _doc()
    _tensor(g, "k")["data"] = [1, 3]
    assert ("k", "data") in _fields(diff_documents(g, _doc()))
    p = _doc()
    _tensor(p, "k").update(dtype="bool", data=[True, False])
    g = copy.deepcopy(p)
    _tensor(g, "k")["data"] = [1, 0]
    assert ("k", "data") in _fields(diff_documents(g, p))


def test_grad_none_versus_values_and_nesting():
    g = _doc()
    _tensor(g, "x")["grad"] = None
    [d] = diff_documents(g, _doc())
    assert (d.tensor, d.field, d.gradcli) == ("x", "grad", "None")
    g = _doc()
    _tensor(g, "x")["data"] = [[1.0, 2.0]]
    [d] = diff_documents(g, _doc())
    assert "nesting" in d.detail


def test_big_tensors_name_the_first_differing_element():
    p = _doc()
    _tensor(p, "x").update(shape=[3, 4], data=[[float(i * 4 + j) for j in range(4)] for i in range(3)])
    g = copy.deepcopy(p)
    _tensor(g, "x")["data"][1][2] = 99.0
    _tensor(g, "x")["data"][2][0] = 98.0
    [d] = diff_documents(g, p)
    assert (d.field, d.gradcli, d.pytorch, d.detail) == ("data[1, 2]", "99.0", "6.0", "2 of 12 elements differ")


def test_compare_document_follows_its_schema():
    schema = json.loads(resources.files("gradcli").joinpath("schemas/compare.schema.json").read_text("utf-8"))
    c = Comparison("f.py", _doc(), _doc(ok=False), diff_documents(_doc(), _doc(ok=False)))
    doc = compare_document(c)
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["identical"] is False and doc["differences"][0]["field"] == "ok"
    jsonschema.Draft202012Validator(schema).validate(compare_document(Comparison("f.py", _doc(), None, note="n")))


# --- the command -------------------------------------------------------------------------------------------------
@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    for k in ("NO_COLOR", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("COLUMNS", "120")
    return CliRunner()


def test_without_pytorch_it_is_an_invocation_error_naming_the_extra(runner, monkeypatch, tmp_path):
    import gradcli.app.oracle as oracle

    monkeypatch.setattr(oracle, "torch_available", lambda: False)
    f = tmp_path / "a.py"
    f.write_text("x = torch.ones(2)\n")
    result = runner.invoke(app, ["compare", str(f)])
    assert result.exit_code == 2
    assert "pip install 'gradcli[torch]'" in result.output


def test_missing_file_is_exit_2(runner, tmp_path):
    result = runner.invoke(app, ["compare", str(tmp_path / "nope.py")])
    assert result.exit_code == 2


@needs_torch
@pytest.mark.torch
def test_identical_file_exits_0(runner, tmp_path):
    f = tmp_path / "ok.py"
    f.write_text("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\nprint(y)\n")
    result = runner.invoke(app, ["compare", str(f)])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output


@needs_torch
@pytest.mark.torch
def test_options_reach_both_sides(runner, tmp_path):
    f = tmp_path / "opts.py"
    f.write_text("y = x * 3\n")
    result = runner.invoke(app, ["compare", str(f), "--set", "x=[1.0, 2.0]", "--requires-grad", "x",
                                 "--backward", "y", "--gradient", "ones", "--retain-graph", "--repeat", "2",
                                 "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["identical"] and doc["pytorch"]["tensors"][0]["grad"] == [6.0, 6.0]


@needs_torch
@pytest.mark.torch
def test_a_difference_exits_1_with_a_table_and_json(runner, tmp_path, monkeypatch):
    # torch.tile is outside gradcli's op registry: a real, if deliberate, disagreement.  compare's walls
    # stop the PyTorch side at a name gradcli lacks (test_a_name_gradcli_lacks_stops_the_pytorch_side), so
    # here the walls' copy of gradcli's torch namespace gets tile, and PyTorch runs it.  Through a function
    # of the file: gradcli's static check refuses a plain torch.tile(...) before anything runs (lang/apicheck.py)
    from gradcli.app import oracle
    from gradcli.app.oracle_walls import surface

    oracle._preload(True)
    ns = surface().roots["torch"]
    monkeypatch.setattr(ns, "_gradcli_public", ns._gradcli_public | {"tile"})
    f = tmp_path / "tile.py"
    f.write_text("def via(m):\n    return m\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                 "y = via(torch).tile(x, (2,))\nprint(y)\n")
    result = runner.invoke(app, ["compare", str(f)])
    assert result.exit_code == 1, result.output
    out = result.output
    assert "differences between gradcli and PyTorch" in out
    for word in ("tensor", "field", "gradcli", "PyTorch", "error", "stdout line 1", "absent"):
        assert word in out
    result = runner.invoke(app, ["compare", str(f), "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.output)
    schema = json.loads(resources.files("gradcli").joinpath("schemas/compare.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert {(d["tensor"], d["field"]) for d in doc["differences"]} >= {(None, "error"), ("y", "tensor")}


@needs_torch
@pytest.mark.torch
def test_a_name_gradcli_lacks_stops_the_pytorch_side(runner, tmp_path):
    """Under compare's walls PyTorch fails where gradcli fails (torch.tile is not gradcli's), and the report
    says that the PyTorch side was stopped by the walls, not by PyTorch: exit 1, a `PyTorch side` row.  (Through
    a function of the file: a plain torch.tile(...) is refused by gradcli's static check, and not run.)"""
    f = tmp_path / "tile.py"
    f.write_text("def via(m):\n    return m\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                 "y = via(torch).tile(x, (2,))\nprint(y)\n")
    message = "`torch.tile` is PyTorch 2.13 API that gradcli does not implement"
    result = runner.invoke(app, ["compare", str(f)])
    assert result.exit_code == 1, result.output
    assert "PyTorch side stopped" in result.output and message in " ".join(result.output.split())
    result = runner.invoke(app, ["compare", str(f), "--json"])
    doc = json.loads(result.output)
    schema = json.loads(resources.files("gradcli").joinpath("schemas/compare.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert not doc["identical"]
    assert [(d["tensor"], d["field"]) for d in doc["differences"]] == [(None, "PyTorch side")]
    assert doc["pytorch"]["error"]["kind"] == doc["gradcli"]["error"]["kind"] == "unsupported"
    assert doc["gradcli"]["error"]["message"] == doc["pytorch"]["error"]["message"] == message
    assert doc["walls"]["refused"] == [{"line": 4, "what": "torch.tile", "message": message}]
    assert doc["walls"]["left"] == [] and "compare's walls" in doc["note"]


@needs_torch
@pytest.mark.torch
def test_a_file_outside_the_language_is_not_executed_by_pytorch(runner, tmp_path):
    marker = tmp_path / "ran"
    f = tmp_path / "evil.py"
    f.write_text(f"x = torch.ones(2)\n__import__('pathlib').Path({str(marker)!r}).write_text('x')\n")
    result = runner.invoke(app, ["compare", str(f)])
    assert result.exit_code == 1
    assert "not compared" in result.output
    assert not marker.exists()


@needs_torch
@pytest.mark.torch
def test_clear_cut_unsupported_constructs_agree(runner, tmp_path):
    f = tmp_path / "imp.py"
    f.write_text("import os\nx = 1\n")
    r = runner.invoke(app, ["compare", str(f)])
    # both refuse it alike; the file's own failure still comes first, with exit status 1 (issue 19)
    assert r.exit_code == 1 and "identical" in r.output and r.output.lstrip().startswith("╭─ error: unsupported")


def _summarised(data: Any) -> dict:
    doc = _doc()
    doc["tensors"][0]["data"] = data
    return doc


def test_truncated_summaries_compare_within_ten_times_the_tolerance():
    # the shared suite's rule for --json-max-elements summaries: shape exact, min/max/mean within 10x tolerance
    s = {"truncated": True, "shape": [2], "min": 1.0, "max": 2.0, "mean": 1.5}
    near = dict(s, mean=1.5 * (1 + 5e-5))
    assert diff_documents(_summarised(near), _summarised(s)) == []
    assert [d.field for d in diff_documents(_summarised(dict(s, mean=1.6)), _summarised(s))] == ["data"]
    assert [d.field for d in diff_documents(_summarised(dict(s, shape=[1, 2])), _summarised(s))] == ["data"]
    assert [d.field for d in diff_documents(_summarised([1.0, 2.0]), _summarised(s))] == ["data"]


def test_oracle_summarises_a_tensor_above_the_json_limit():
    torch = pytest.importorskip("torch")
    from gradcli.app.oracle import tensor_record

    t = torch.arange(6.0).reshape(2, 3)
    assert tensor_record("t", t, max_elements=5)["data"] == {"truncated": True, "shape": [2, 3], "min": 0.0,
                                                              "max": 5.0, "mean": 2.5}
    assert tensor_record("t", t)["data"] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert tensor_record("k", torch.arange(6), max_elements=5)["data"]["max"] == 5  # an int stays an int
