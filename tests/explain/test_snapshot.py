"""CI snapshots (issue 7, must-have 6): --snapshot writes the run's JSON atomically; --expect-snapshot
compares with the conformance tolerances and exits 1 with a table of differences."""

from __future__ import annotations

import json
import os

import pytest
from conftest import src

from gradcli.app.snapshot import write_snapshot

FILE = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    """)


def test_snapshot_is_the_json_output(cli, tmp_path):
    code, out, _ = cli(FILE, "run", "{file}", "--json", "--snapshot", "snap.json")
    assert code == 0
    assert json.loads((tmp_path / "snap.json").read_text()) == json.loads(out)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".gradcli-snapshot-")] == []


def test_snapshot_with_human_output(cli, tmp_path):
    code, out, _ = cli(FILE, "run", "{file}", "--snapshot", "snap.json")
    assert code == 0 and out.rstrip().endswith("ok")
    doc = json.loads((tmp_path / "snap.json").read_text())
    assert doc["schema"] == "gradcli.run/1" and doc["tensors"][0]["grad"] == [2.0, 4.0]


def test_snapshot_replaces_atomically(tmp_path):
    target = tmp_path / "snap.json"
    target.write_text("old")
    write_snapshot(str(target), {"schema": "gradcli.run/1", "tensors": []})
    assert json.loads(target.read_text())["tensors"] == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snap.json"]


def test_failed_write_keeps_the_old_snapshot(tmp_path, monkeypatch):
    target = tmp_path / "snap.json"
    target.write_text("old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    from gradcli.app.problems import UsageProblem

    with pytest.raises(UsageProblem, match="--snapshot .*disk full"):  # exit 2 naming the option
        write_snapshot(str(target), {"schema": "gradcli.run/1"})
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snap.json"]


def test_snapshot_into_a_missing_directory_is_a_usage_error(cli):
    code, _, err = cli(FILE, "run", "{file}", "--snapshot", "nowhere/snap.json")
    assert code == 2 and "does not exist" in err


def record(cli, tmp_path) -> dict:
    cli(FILE, "run", "{file}", "--snapshot", "snap.json")
    return json.loads((tmp_path / "snap.json").read_text())


def test_expect_snapshot_matches(cli, tmp_path):
    record(cli, tmp_path)
    code, out, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json")
    assert code == 0 and "snapshot snap.json: the run matches" in out


def test_expect_snapshot_within_tolerance(cli, tmp_path):
    doc = record(cli, tmp_path)
    doc["tensors"][0]["grad"] = [2.0 * (1 + 3e-6), 4.0]  # float32: rtol 1e-5
    (tmp_path / "snap.json").write_text(json.dumps(doc))
    code, _, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json")
    assert code == 0


def test_expect_snapshot_differences_table(cli, tmp_path):
    doc = record(cli, tmp_path)
    doc["tensors"][0]["grad"] = [2.0, 4.5]
    doc["tensors"][1]["grad_fn"] = "MeanBackward0"
    (tmp_path / "snap.json").write_text(json.dumps(doc))
    code, out, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json")
    assert code == 1
    table = out[out.index("differences from snapshot snap.json"):]
    rows = [line.split() for line in table.splitlines()[3:]]
    assert ["x", "grad", "[2.0,", "4.0]", "[2.0,", "4.5]", "1", "of", "2", "elements", "differ"] in rows
    assert ["y", "grad_fn", "SumBackward0", "MeanBackward0"] in rows
    assert "snapshot snap.json: 2 differences" in out


def test_expect_snapshot_with_json_keeps_stdout_json(cli, tmp_path):
    doc = record(cli, tmp_path)
    doc["ok"] = False
    (tmp_path / "snap.json").write_text(json.dumps(doc))
    code, out, err = cli(None, "run", "{file}", "--json", "--expect-snapshot", "snap.json")
    assert code == 1
    assert json.loads(out)["ok"] is True
    assert "differences from snapshot" in err and "snapshot snap.json: 1 difference" in err


def test_a_recorded_failure_is_matched(cli, tmp_path):
    code, _, _ = cli("x = torch.tensor([1.0], requires_grad=True)\ny = x * 2\ny.backward()\ny.backward()\n",
                     "run", "{file}", "--snapshot", "snap.json")
    assert code == 1
    code, out, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json")
    assert code == 0 and "the run matches" in out


def test_missing_or_bad_snapshot_is_a_usage_error(cli, tmp_path):
    code, _, err = cli(FILE, "run", "{file}", "--expect-snapshot", "missing.json")
    assert code == 2 and "no such file" in err
    (tmp_path / "bad.json").write_text("[1, 2]")
    code, _, err = cli(None, "run", "{file}", "--expect-snapshot", "bad.json")
    assert code == 2 and "not a gradcli.run/1 snapshot" in err


@pytest.mark.parametrize("dtype, rel, ok", [
    # the conformance tolerances: |snap - run| <= atol + rtol * |snap|; float32 rtol 1e-5 atol 1e-6,
    # float64 rtol 1e-10 atol 1e-12 -- for the gradient 2.0 that is 2.1e-5 and 2.01e-10
    ("float32", 1.0e-5, True), ("float32", 1.2e-5, False),
    ("float64", 1.0e-10, True), ("float64", 1.2e-10, False),
])
def test_expect_snapshot_tolerance_edges(cli, tmp_path, dtype, rel, ok):
    cli(FILE, "run", "{file}", "--dtype", dtype, "--snapshot", "snap.json")
    doc = json.loads((tmp_path / "snap.json").read_text())
    assert doc["tensors"][0]["grad"] == [2.0, 4.0]
    doc["tensors"][0]["grad"] = [2.0 * (1 + rel), 4.0]
    (tmp_path / "snap.json").write_text(json.dumps(doc))
    code, out, _ = cli(None, "run", "{file}", "--dtype", dtype, "--expect-snapshot", "snap.json")
    assert code == (0 if ok else 1)
    assert ("1 of 2 elements differ" in out) == (not ok)


def test_expect_and_write_the_same_snapshot_compares_with_the_old_then_records(cli, tmp_path):
    doc = record(cli, tmp_path)
    doc["tensors"][0]["grad"] = [2.0, 4.5]
    (tmp_path / "snap.json").write_text(json.dumps(doc))
    code, out, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json", "--snapshot", "snap.json")
    assert code == 1 and "snapshot snap.json: 1 difference" in out
    assert json.loads((tmp_path / "snap.json").read_text())["tensors"][0]["grad"] == [2.0, 4.0]  # x.grad = 2x
    code, out, _ = cli(None, "run", "{file}", "--expect-snapshot", "snap.json")
    assert code == 0
