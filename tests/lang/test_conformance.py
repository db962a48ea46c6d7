"""The recorded cases (shared conformance suite, copied, + the language's own cases) through run_file.

Expectations were recorded from PyTorch 2.13 by the oracle (tools/torch_run.py).
Cases that fail only because an engine feature is still missing are listed in
ENGINE_GAPS (xfail, not strict: they turn into XPASS as the engine grows).
"""

from __future__ import annotations

import pytest
from conformance_util import all_cases, check_case
from conftest import needs_engine

# failing because of the engine, not the language (see the lang engineer's report)
ENGINE_GAPS = {
    "lang_cases/unpack_tensor_loop": "Tensor.__iter__ should unbind (UnbindBackward0), not select",
}

CASES = all_cases()
_RESULTS: dict = {}


def _diffs(case):
    if case not in _RESULTS:
        _RESULTS[case] = check_case(case)
    return _RESULTS[case]


@needs_engine
@pytest.mark.parametrize("case", CASES)
def test_case(case):
    diffs = _diffs(case)
    if diffs and case in ENGINE_GAPS:
        pytest.xfail(ENGINE_GAPS[case])
    assert not diffs, "\n".join(diffs)


@needs_engine
def test_summary(capsys):
    """Prints `conformance: P/N` (shared suite) for the report; the language's own cases must all pass."""
    passed = {c for c in CASES if not _diffs(c)}
    shared = [c for c in CASES if c.startswith("conformance/")]
    own = [c for c in CASES if c.startswith("lang_cases/")]
    with capsys.disabled():
        print(f"\nconformance: {len(passed & set(shared))}/{len(shared)} shared cases pass; "
              f"language cases {len(passed & set(own))}/{len(own)}")
    assert all(c in passed or c in ENGINE_GAPS for c in own)
