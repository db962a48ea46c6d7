"""Lint agrees with run on random programs (the differential generator's, tests/conformance): every
certain finding that predicts an error or a warning is what the run then does -- unless the run stopped
earlier, before reaching it.  Derandomized; GRADCLI_LINT_EXAMPLES sets the count."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
programs = pytest.importorskip("program_strategies").programs

from gradcli.app.lint import lint_source  # noqa: E402
from gradcli.app.related import related_for  # noqa: E402
from gradcli.app.why import Explainer  # noqa: E402
from gradcli.lang.run import run_file  # noqa: E402


@st.composite
def plain_programs(draw):
    """Programs whose options do not change what the file itself does (lint reads only the file)."""
    try:
        p = draw(programs())
    except Exception:  # a generator hiccup is not what this test is about
        assume(False)
    o = p.options
    assume(not (o.no_grad or o.requires_grad or o.retain_grad or o.sets))
    return p


@settings(max_examples=int(os.environ.get("GRADCLI_LINT_EXAMPLES", "150")), derandomize=True, database=None,
          deadline=None, suppress_health_check=list(HealthCheck))
@given(plain_programs())
def test_certain_findings_agree_with_run(p):
    findings = lint_source(p.source, "gen.py").findings
    r = run_file(p.source, "gen.py", p.options)
    related_for(r, p.options)  # the explainers never fail on what the run left
    Explainer(r, None).explain_all()
    for f in findings:
        if not f.certain or not f.expect or ("error" not in f.expect and "warning" not in f.expect):
            continue  # (a finding about what runs without error has its own claim tests in test_lint.py)
        line = f.expect.get("line")
        stopped_before = r.error is not None and r.error.line is not None and r.error.line < line
        if "error" in f.expect:
            got = None if r.error is None else (r.error.kind, r.error.line)
            assert got == (f.expect["error"], line) or stopped_before, (f, got, p.source)
        elif "warning" in f.expect:
            warned = (f.expect["warning"], line) in [(w.kind, w.line) for w in r.warnings]
            assert warned or (r.error is not None and r.error.line is not None and r.error.line <= line), \
                (f, p.source)
