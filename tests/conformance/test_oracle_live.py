"""Live oracle: every case re-run under real PyTorch; the recorded expectations must be current.

Uses :mod:`gradcli.app.oracle` (the project's rewrite of the conformance
suite's torch_run.py), one forked process per case.  Skipped, with the reason
shown, when PyTorch is not installed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from casefiles import CASES_ROOT_NOTE, Case, discover, format_differences, needs_torch

from gradcli.app.compare import diff_documents

CASES = discover()

pytestmark = [needs_torch, pytest.mark.torch]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_expectation_is_current(case: Case):
    from differential import pytorch_document

    fresh = pytorch_document(case.source, case.options(), case.path.name)
    recorded = case.expected()
    diffs = diff_documents(recorded, fresh)
    assert not diffs, (f"{case.name}: the recorded expectation is stale ({CASES_ROOT_NOTE}); "
                       f"recorded vs PyTorch now:\n{format_differences(diffs)}")
    assert [(t["name"], t["dtype"]) for t in recorded["tensors"]] == [(t["name"], t["dtype"]) for t in fresh["tensors"]]
    if fresh["error"] is not None:
        assert recorded["error"]["col"] == fresh["error"]["col"]


def test_oracle_command_line(tmp_path):
    """``python -m gradcli.app.oracle FILE`` reads the header and prints the same JSON, exit 1 on error."""
    case = next(c for c in CASES if c.args and not c.expected()["ok"])
    proc = subprocess.run([sys.executable, "-m", "gradcli.app.oracle", "run", case.path.name, "--json"],
                          cwd=case.path.parent, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert diff_documents(json.loads(proc.stdout), case.expected()) == []


def test_oracle_bad_set_is_an_invocation_error():
    from gradcli.app.oracle import OracleInvocationError, run_isolated
    from gradcli.lang.result import RunOptions

    with pytest.raises(OracleInvocationError):
        run_isolated("y = 1\n", "x.py", RunOptions(sets=[("x", "torch.nosuch(1)")]))


def test_oracle_once_per_process_warning_is_per_run():
    """PyTorch warns about create_graph=True once per process; isolated runs each see it."""
    from gradcli.app.oracle import run_isolated

    src = "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\ny.backward(create_graph=True)\n"
    for _ in range(2):
        doc = run_isolated(src, "cg.py")
        assert [(w["kind"], w["line"]) for w in doc["warnings"]] == [("create_graph_cycle", 3)]
