"""Smoke test of benchmarks/run.py: the tiny workload once through the runner's own functions.

No timing assertions: only that each measurement runs, succeeds and is reported.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("gradcli_bench_run", REPO / "benchmarks" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_every_workload_file_exists_and_validates(bench):
    from gradcli.lang.run import prepare

    names = [w.name for w in bench.WORKLOADS]
    # issue 9's eight, issue 17's train_adam, issue 21's seven
    assert len(names) == 16 and len(set(names)) == 16
    for w in bench.WORKLOADS:
        prepare(w.path.read_bytes(), str(w.path))  # raises on a syntax/unsupported/limit problem
        if w.torch_path is not None:
            assert w.torch_path.is_file()
    assert {w.name for w in bench.WORKLOADS if w.torch_path is None} == {"graph_10k", "why_10k"}


def test_command_workloads_run_their_command(bench):
    w = {w.name: w for w in bench.WORKLOADS}
    cmd = bench.whole_command("gradcli", w["why_10k"].path, w["why_10k"].command)
    assert cmd[-3:] == ["why", str(w["graph_10k"].path), "w"] and w["why_10k"].views == ("whole",)
    assert bench.whole_command("gradcli", w["check_50"].path, ("check",))[-1] == "--json"
    assert w["check_50"].torch_path.name == "check_50.py" and w["check_50"].torch_path.parent.name == "torch"


def test_torch_threads_reach_only_the_torch_side(bench, monkeypatch):
    monkeypatch.setattr(bench, "TORCH_THREADS", 1)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert bench.bench_env("torch")["OMP_NUM_THREADS"] == "1" and "OMP_NUM_THREADS" not in bench.bench_env()


def test_bench_env_unsets_openblas_overrides(bench, monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setenv("OPENBLAS_L2_SIZE", "1048576")
    env = bench.bench_env()
    assert "OPENBLAS_CORETYPE" not in env and "OPENBLAS_L2_SIZE" not in env
    assert env["PYTHONPATH"].split(":")[0] == str(REPO / "src")


def test_tiny_through_the_runner(bench):
    tiny = next(w for w in bench.WORKLOADS if w.name == "tiny")
    out = bench.run_workload(tiny, runs=1, tools=("gradcli",), timeout=120)
    for view in ("whole", "engine"):
        s = out["views"][view]["summary"]
        assert s["gradcli_ok"] == 1, s["errors"]
        assert s["gradcli_s"] > 0 and s["gradcli_rss_mb"] > 0
        assert s["ratio"] is None  # gradcli alone: no ratio
    engine_run = out["views"]["engine"]["runs"]["gradcli"][0]
    assert engine_run["value"] == 15.0  # (x * 2 + 1).sum() for x = [1, 2, 3]
    doc = {"machine": {}, "runs": 1, "workloads": [out]}
    text = bench.markdown(doc)
    assert "| tiny |" in text
    json.dumps(doc)  # JSON-serialisable


def test_failure_is_a_row_not_a_crash(bench, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("x = torch.ones(2)\ny = x.no_such_method()\n")
    rec = bench.measure_engine("gradcli", bad, timeout=120)
    assert rec["ok"] is False and rec["error"]
    rec = bench.measure_whole("gradcli", bad, timeout=120)
    assert rec["ok"] is False and rec["error"]
    s = bench.summarize([rec], [])
    assert s["gradcli_ok"] == 0 and bench._status(s).startswith("FAIL")


def test_run_prepared_matches_run_file():
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import prepare, run_file, run_prepared

    src = (REPO / "benchmarks" / "workloads" / "tiny.py").read_bytes()
    a = run_file(src, "tiny.py", RunOptions())
    b = run_prepared(prepare(src, "tiny.py"), RunOptions())
    assert a.ok and b.ok
    assert [n for n, _ in a.tensors] == [n for n, _ in b.tensors]
    assert b.source == a.source and b.file == a.file
