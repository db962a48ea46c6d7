"""`gradcli run FILE OPTIONS --json` against PyTorch-recorded expectations (tests/cli/data,
recorded by record_cli_cases.py through the conformance oracle), and against the JSON schema."""

from __future__ import annotations

import json
import math

import pytest
from cli_helpers import DATA, case_path, differences, expected, header_options

from gradcli.cli import app

CASES = sorted(p.name for p in DATA.glob("*.py"))


def run_json(runner, name: str, *extra: str):
    path = case_path(name)
    r = runner.invoke(app, ["run", str(path), *header_options(path), *extra, "--json"])
    return r, (json.loads(r.stdout) if r.stdout.strip() else None)


@pytest.mark.parametrize("name", CASES)
def test_case_matches_pytorch(runner, run_schema, name):
    r, doc = run_json(runner, name)
    assert doc is not None, r.stderr
    run_schema.validate(doc)
    exp = expected(name)
    assert differences(exp, doc) == []
    want = 0 if (exp["ok"] or "--expect-error" in header_options(case_path(name))) else 1
    assert r.exit_code == want
    assert r.stderr == ""  # --json: the JSON alone, no diagnostics for a file's own error


def test_json_is_the_only_stdout(runner):
    r, doc = run_json(runner, "printing_first.py")
    assert r.stdout.lstrip().startswith("{") and r.stdout.rstrip().endswith("}")
    assert doc["stdout"].startswith("[bold]x[i][/bold] tensor([1., 2.]")


def test_set_values_dtypes(runner):
    _, doc = run_json(runner, "set_values.py")
    dtypes = {t["name"]: t["dtype"] for t in doc["tensors"]}
    assert dtypes == {"w": "float32", "b": "float32", "k": "int64", "loss": "float32"}


def test_json_max_elements_truncates(runner, run_schema):
    """x = arange(12.) reshaped 3x4: min 0, max 11, mean 5.5 (mathematics)."""
    src = "x = torch.arange(12.0).reshape(3, 4).requires_grad_()\ny = (x * 2).sum()\n"
    r = runner.invoke(app, ["run", "-", "--json", "--json-max-elements", "10"], input=src)
    doc = json.loads(r.stdout)
    run_schema.validate(doc)
    x = doc["tensors"][0]
    assert x["data"] == {"truncated": True, "shape": [3, 4], "min": 0.0, "max": 11.0, "mean": 5.5}
    assert x["grad"] == {"truncated": True, "shape": [3, 4], "min": 2.0, "max": 2.0, "mean": 2.0}
    assert doc["tensors"][1]["data"] == 132.0  # 0-d: 1 element, under the limit
    r = runner.invoke(app, ["run", "-", "--json"], input=src)
    assert json.loads(r.stdout)["tensors"][0]["data"] == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0],
                                                          [8.0, 9.0, 10.0, 11.0]]


def test_stdin_file_name(runner):
    r = runner.invoke(app, ["run", "-", "--json"], input="x = torch.tensor(1.5)\n")
    doc = json.loads(r.stdout)
    assert doc["file"] == "<stdin>" and doc["ok"] and doc["tensors"][0]["data"] == 1.5


def test_non_finite_are_strings(runner):
    _, doc = run_json(runner, "non_finite.py")
    z = next(t for t in doc["tensors"] if t["name"] == "z")
    assert z["data"] == ["nan", "inf", "-inf"]
    assert not any(isinstance(v, float) and not math.isfinite(v) for v in z["data"])


def test_limits_are_limit_errors(runner):
    r = runner.invoke(app, ["run", "-", "--json", "--max-elements", "100"], input="x = torch.zeros(1000)\n")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["error"]["kind"] == "limit" and doc["error"]["line"] == 1
    r = runner.invoke(app, ["run", "-", "--json", "--max-steps", "50"], input="n = 0\nwhile True:\n    n = n + 1\n")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["error"]["kind"] == "limit"
    r = runner.invoke(app, ["run", "-", "--json", "--timeout", "0.3", "--max-steps", "100000000"],
                      input="n = 0\nwhile True:\n    n = n + 1\n")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["error"]["kind"] == "limit"
