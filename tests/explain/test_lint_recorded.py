"""Every certain lint finding on every file PyTorch 2.13 ran for this repository agrees with what PyTorch did
(issue 7, must-have 3): the conformance cases and regressions (tests/conformance/*/*.py with their recorded
``.expected.json``) and the samples (tests/samples/expected/).  A "will fail" finding names PyTorch's error
kind and line; a "will warn" finding a warning PyTorch gave.  Files whose header passes CLI options that
change the run (``# gradcli: --set ...``) are left out: lint reads the file alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli.app.lint import lint_source

ROOT = Path(__file__).resolve().parents[2]


def recorded() -> list[tuple[Path, Path]]:
    out = []
    for src in sorted((ROOT / "tests" / "conformance").glob("*/*.py")):
        exp = src.with_suffix(".expected.json")
        if exp.exists():
            out.append((src, exp))
    for src in sorted((ROOT / "samples").glob("*.py")):
        exp = ROOT / "tests" / "samples" / "expected" / f"{src.stem}.expected.json"
        if exp.exists():
            out.append((src, exp))
    return out


def _changes_the_run(source: str) -> bool:
    first = source.split("\n", 1)[0].strip()
    if not (first.startswith("#") and first[1:].strip().startswith("gradcli:")):
        return False
    opts = first[1:].strip()[len("gradcli:"):].split()
    return any(o.startswith("--") and o != "--expect-error" for o in opts)


CASES = [(s, e) for s, e in recorded() if not _changes_the_run(s.read_text(encoding="utf-8"))]


def test_there_are_recorded_files():
    assert len(CASES) >= 100


@pytest.mark.parametrize("src, exp", CASES, ids=[str(s.relative_to(ROOT)) for s, _ in CASES])
def test_certain_findings_agree_with_pytorch(src, exp):
    doc = json.loads(exp.read_text(encoding="utf-8"))
    findings = lint_source(src.read_text(encoding="utf-8"), src.name).findings
    error = doc.get("error")
    warnings = [(w["kind"], w["line"]) for w in doc.get("warnings", [])]
    for f in findings:
        if not f.certain or not f.expect:
            continue
        if "error" in f.expect:
            assert error is not None and (error["kind"], error["line"]) == (f.expect["error"], f.expect["line"]), \
                (f.kind, f.line, f.expect, error and (error["kind"], error["line"]))
        if "warning" in f.expect:
            assert (f.expect["warning"], f.expect["line"]) in warnings, (f.kind, f.line, warnings)
