"""Functional against PyTorch 2.13: recorded snippets (data/functional_cases.json, see record_autograd_extras.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import record_autograd_extras as rec

CASES = rec.load("functional")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    got = rec.run_gradcli(case["src"])
    diffs = rec.compare(got, case)
    assert not diffs, "\n".join(diffs)
