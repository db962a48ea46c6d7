"""Issue 19, the first ten minutes: the design card's example in one step, and saying what ran.

The values of the free-input runs are PyTorch's: the same files are conformance cases recorded from
PyTorch 2.13 (tests/conformance/cli_options/free_input_*.py); here the command line's own output is
checked (the note, the hint with the exact command, the ``inputs``/``backward`` JSON).
"""

from __future__ import annotations

import json

import pytest

from gradcli.cli import main

EXPR = "y = x*2; z = y*3\n"


@pytest.fixture
def expr(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    (tmp_path / "expr.txt").write_text(EXPR, encoding="utf-8")
    return "expr.txt"


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_design_card_example_runs_in_one_step(expr, capsys, run_schema):
    code, out, _ = _run(capsys, "run", expr, "--requires-grad", "x", "--retain-grad", "y", "--json")
    assert code == 0
    doc = json.loads(out)
    run_schema.validate(doc)
    grads = {t["name"]: t["grad"] for t in doc["tensors"]}
    assert grads == {"x": 6.0, "y": 3.0, "z": None}  # dz/dx = 2 * 3, dz/dy = 3; z is the root
    assert doc["inputs"] == [{"name": "x", "source": "free", "value": "torch.tensor(1.0)"}]
    assert doc["backward"] == {"target": "z", "implicit": True, "call": "z.backward()", "repeat": 1,
                               "options": {"gradient": None, "inputs": None, "retain_graph": False,
                                           "create_graph": False}}


def test_free_input_note_and_backward_line_in_the_tables(expr, capsys):
    code, out, _ = _run(capsys, "run", expr, "--requires-grad", "x", "--retain-grad", "y")
    assert code == 0
    text = " ".join(out.split())
    assert "inputs: x = torch.tensor(1.0), bound by gradcli: the file reads x but never assigns it" in text
    assert ("backward: gradcli ran z.backward() after the file (the default: the last tensor assigned; the "
            "file calls no backward itself)") in text


def test_name_error_of_a_free_name_gives_the_command_that_runs_the_file(expr, capsys):
    code, out, _ = _run(capsys, "run", expr, "--retain-grad", "y", "--json")
    assert code == 1
    err = json.loads(out)["error"]
    assert (err["kind"], err["line"], err["message"]) == ("name", 1, "name 'x' is not defined")
    assert "it looks like an input" in err["hint"]
    assert err["hint"].endswith("Run:\n  gradcli run expr.txt --retain-grad y --json --requires-grad x")
    # and the suggested command does run the file
    args = err["hint"].rsplit("\n", 1)[1].split()[1:]
    code, out, _ = _run(capsys, *args)
    assert code == 0 and json.loads(out)["ok"]


def test_name_error_of_a_name_the_file_binds_keeps_its_hint(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "late.py").write_text("y = x * 2\nx = torch.tensor(1.0)\n", encoding="utf-8")
    code, out, _ = _run(capsys, "run", "late.py", "--json")
    err = json.loads(out)["error"]
    assert code == 1 and err["kind"] == "name"
    assert "looks like an input" not in err["hint"]


@pytest.mark.parametrize("args, expected", [
    (["--backward", "z", "--retain-graph", "--repeat", "2"],
     {"target": "z", "implicit": False, "call": "z.backward(retain_graph=True)", "repeat": 2,
      "options": {"gradient": None, "inputs": None, "retain_graph": True, "create_graph": False}}),
    (["--gradient", "ones", "--inputs", "x", "--create-graph"],
     {"target": "z", "implicit": True, "call": "z.backward(gradient=torch.ones_like(z), create_graph=True, "
                                               "inputs=[x])", "repeat": 1,
      "options": {"gradient": "ones", "inputs": ["x"], "retain_graph": False, "create_graph": True}}),
    (["--repeat", "0"], None),
])
def test_backward_record_says_what_ran(expr, capsys, run_schema, args, expected):
    code, out, _ = _run(capsys, "run", expr, "--requires-grad", "x", *args, "--json")
    doc = json.loads(out)
    run_schema.validate(doc)
    assert doc["backward"] == expected


def test_no_backward_record_when_the_file_calls_backward_itself(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "own.py").write_text("x = torch.tensor(2.0, requires_grad=True)\ny = x * x\ny.backward()\n",
                                     encoding="utf-8")
    code, out, _ = _run(capsys, "run", "own.py", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["backward"] is None and doc["inputs"] == []
    code, out, _ = _run(capsys, "run", "own.py")
    assert "backward:" not in out


def test_set_names_are_listed_as_inputs(expr, capsys):
    code, out, _ = _run(capsys, "run", expr, "--set", "x=1.5", "--requires-grad", "x", "--json")
    doc = json.loads(out)
    assert doc["inputs"] == [{"name": "x", "source": "--set", "value": "1.5"}]
    assert {t["name"]: t["grad"] for t in doc["tensors"]}["x"] == 6.0
