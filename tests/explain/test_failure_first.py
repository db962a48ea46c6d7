"""Issue 19, must-have 2: every explainer shows the file's own failure first, with exit status 1.

Twenty broken files (tests/explain/data/broken: syntax, name, unsupported, runtime, limit errors) through
``why``, ``modes``, ``graph``, ``check``, ``lint`` and ``compare``: the panel of the error ``run`` reports
(its kind in the title) comes first, the exit status is 1, and ``--json`` prints a document holding that
error.  ``lint`` does not run the file: it shows the static errors (syntax, unsupported, a parser limit)
and finds nothing it could know about the others.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli.cli import main

BROKEN = Path(__file__).resolve().parent / "data" / "broken"
FILES = sorted(p.name for p in BROKEN.glob("*.py"))
EXPLAINERS = ("why", "modes", "graph", "check", "lint", "compare")


def test_twenty_broken_files_of_each_kind():
    kinds = {}
    for f in FILES:
        kinds.setdefault(f.rstrip("0123456789.py"), []).append(f)
    assert {k: len(v) for k, v in kinds.items()} == {"syntax": 4, "name": 4, "unsupported": 4, "runtime": 4,
                                                    "limit": 4}


@pytest.fixture
def in_broken(monkeypatch):
    monkeypatch.chdir(BROKEN)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")


def _run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _args(explainer, file, json_output):
    args = [explainer, file]
    if explainer == "why":
        args.append("y")
    if json_output:
        args += ["--format", "json"] if explainer == "graph" else ["--json"]
    return args


def _error_of(explainer, doc):
    return doc["gradcli"]["error"] if explainer == "compare" else doc.get("error")


@pytest.mark.parametrize("file", FILES)
@pytest.mark.parametrize("explainer", EXPLAINERS)
def test_explainer_shows_the_files_error_first(in_broken, capsys, explainer, file):
    if explainer == "compare":
        pytest.importorskip("torch")
    code, out, _ = _run(capsys, "run", file, "--json")
    err = json.loads(out)["error"]
    assert code == 1 and err is not None
    static = err["kind"] in ("syntax", "unsupported") or (err["kind"] == "limit" and file == "limit4.py")
    code, out, stderr = _run(capsys, *_args(explainer, file, False))
    if explainer == "lint" and not static:
        return  # lint never runs the file: a runtime error is not its to know
    assert code == 1, (out, stderr)
    title = f"error: {err['kind']}"
    shown = stderr if explainer == "graph" else out
    assert title in shown
    assert shown.lstrip().startswith("╭─ " + title), shown[:300]  # first
    assert "no tensor of the file has a grad_fn" not in out + stderr
    assert "Traceback" not in out + stderr


@pytest.mark.parametrize("file", FILES)
@pytest.mark.parametrize("explainer", EXPLAINERS)
def test_explainer_json_holds_the_files_error(in_broken, capsys, explainer, file):
    if explainer == "compare":
        pytest.importorskip("torch")
    code, out, _ = _run(capsys, "run", file, "--json")
    err = json.loads(out)["error"]
    code, out, _ = _run(capsys, *_args(explainer, file, True))
    doc = json.loads(out)  # always a document
    got = _error_of(explainer, doc)
    if explainer == "lint" and got is None:
        assert err["kind"] not in ("syntax", "unsupported")
        return
    assert code == 1
    assert (got["kind"], got["line"]) == (err["kind"], err["line"])


def test_compare_does_not_run_past_gradclis_limits(in_broken, capsys):
    pytest.importorskip("torch")
    code, out, _ = _run(capsys, "compare", "limit1.py")
    assert code == 1
    assert "compare does not run it under PyTorch beyond gradcli's limits" in " ".join(out.split())
