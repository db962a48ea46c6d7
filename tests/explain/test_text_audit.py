"""Issue 19, must-have 6: the text audit.  Every message, hint and explanation gradcli writes -- error
messages and hints of every kind, warning hints, why-notes of every kind and their story lines, lint
findings, the unknown-API check's and the free inputs' texts, the run's notes -- is rendered here with real
values (the samples, the conformance cases, the explainers' test cases, broken files) and checked for what
a template leaves behind when a value is missing: a placeholder, a doubled word, an empty clause
(``at before``, ``()``, ``, .``), a stray ``None``/``''`` where a name should be, doubled spaces.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "conformance"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: words that may stand twice in a row in real text
_DOUBLE_OK = {"that", "had", "is"}
_PLACEHOLDERS = [
    (re.compile(r"\{[A-Za-z_][A-Za-z_0-9]*(?:![rs])?(?::[^}]*)?\}"), "a {placeholder} left in"),
    (re.compile(r"%\(?[a-z_]*\)?[sdr]\b"), "a %-placeholder left in"),
]
_CHECKS = [
    # (not a name that reads like a word: ``(A.sum().backward())``, ``ones_like(A)`` for a tensor named A)
    (re.compile(r"(?<![(.])\b(at|of|by|from|with|the|an?|and|or)\s*(?=[,;:)]|\.(?!\w)|$)", re.I), "an empty clause"),
    (re.compile(r"\b(at|in|on|by)\s+(before|after)\b"), "two prepositions in a row (an empty place)"),
    (re.compile(r"(?<![\w.\]>])\(\s*\)|``"), "an empty bracket or code span"),
    (re.compile(r"\s[,.;:](?!\w)"), "a space before punctuation"),
    (re.compile(r"(?<=[a-z]) {2,}(?=[a-z])"), "doubled spaces"),
    (re.compile(r"`(None|)`(?= (is|was|has|gets))"), "a name that is None or empty"),
]


def problems(text: str) -> list[str]:
    """What is wrong with one message, hint or explanation (empty: nothing)."""
    out = []
    prose = re.sub(r"`[^`]*`", "`code`", text)  # code spans may hold anything
    for pattern, what in _PLACEHOLDERS:
        m = pattern.search(prose)
        if m:
            out.append(f"{what}: {m.group(0)!r}")
    # (not the end of an option's name and its value: ``--retain-grad grad`` names a tensor called grad)
    for m in re.finditer(r"(?<!-)\b([A-Za-z]+) \1\b", prose):
        if m.group(1).lower() not in _DOUBLE_OK:
            out.append(f"a doubled word: {m.group(0)!r}")
    prose = re.sub(r"--[a-z-]+(?:[ =][\w.,=\[\]]+)?", "OPTION", prose)
    prose = re.sub(r"[\w]*\.\w[\w.]*(?:\(\))?|\b\w+\(\)", "CODE", prose)  # x.grad, .data, f()
    prose = re.sub(r"\[[^\]]*\]|\([^()]*=[^()]*\)", "VALUE", prose)  # tensor values, calls with keywords
    for pattern, what in _CHECKS:
        m = pattern.search(prose)
        if m:
            out.append(f"{what}: {m.group(0)!r}")
    return out


def test_the_checker_finds_the_texts_of_issue_19():
    assert problems("`x` is part of the graph of the backward at before the file ran")
    assert problems("--inputs names names the file binds.")
    assert problems("the saved values of {node} were freed")
    assert not problems("`y` was computed at line 1 (`y = x*2`) from `x`, which does not require grad.")
    assert problems("the backward at , then") and problems("computed from the.") and problems("made by an")
    # a tensor named A is no article
    assert not problems("Reduce it first (A.sum().backward()), or pass gradient= (e.g. torch.ones_like(A)).")


def _texts_of_result(result) -> list[tuple[str, str]]:
    out = []
    e = result.error
    if e is not None:
        out += [("error message", e.message), ("error hint", e.hint or "")]
        out += [("related", str(r.get("text") or "")) for r in getattr(e, "related", None) or ()]
    for w in result.warnings:
        out.append(("warning", w.message))
    for name, note in (getattr(result, "why", None) or {}).items():
        out += [("why", note.message), ("why hint", note.hint)]
        out += [("why related", str(r.get("text") or "")) for r in note.related]
    return out


def _run_all(source, filename, options):
    from gradcli.app.related import enrich
    from gradcli.app.run import explain_name_error
    from gradcli.app.why import annotate
    from gradcli.lang.run import run_file

    result = run_file(source, filename, options)
    explain_name_error(result, ["run", filename])
    enrich(result, options)
    annotate(result, options)
    return result


def _corpus():
    from casefiles import discover
    from gradcli.app.oracle import header_options, options_from_args

    files = [(c.path, c.args) for c in discover()]
    for p in sorted((ROOT / "samples").glob("*.py")) + sorted((ROOT / "tests" / "explain" / "data" / "broken")
                                                                  .glob("*.py")):
        text = p.read_text(encoding="utf-8", errors="replace")
        args = [a for a in header_options(text) if a != "--expect-error"]
        if "--expect-error" in header_options(text):
            i = header_options(text).index("--expect-error")
            args = header_options(text)[:i] + header_options(text)[i + 2:]
        files.append((p, args))
    return [(p, args, options_from_args) for p, args in files]


def _explainer_cases():
    import test_lint
    import test_why

    return ([("why", c.id, c.source, c.options) for c in test_why.CASES]
            + [("lint", c.id, c.source, {}) for c in test_lint.CASES])


@pytest.fixture(scope="module")
def rendered():
    """(where, what, text) of everything the corpus makes gradcli write."""
    from gradcli.app.lint import lint_source
    from gradcli.lang.result import RunOptions

    out = []
    for path, args, parse in _corpus():
        result = _run_all(path.read_bytes(), path.name, parse(args))
        out += [(path.name, what, text) for what, text in _texts_of_result(result)]
        lint = lint_source(path.read_bytes(), path.name)
        for f in lint.findings:
            out += [(path.name, "lint", f.message), (path.name, "lint hint", f.hint)]
            out += [(path.name, "lint related", str(r.get("text") or "")) for r in f.related]
    for tool, cid, source, options in _explainer_cases():
        if tool == "why":
            result = _run_all(source, "case.py", RunOptions(**options))
            out += [(cid, what, text) for what, text in _texts_of_result(result)]
        else:
            for f in lint_source(source, "case.py").findings:
                out += [(cid, "lint", f.message), (cid, "lint hint", f.hint)]
    return out


def test_the_corpus_reaches_every_template(rendered):
    from gradcli.app.lint import KINDS as LINT_KINDS
    from gradcli.app.why import KINDS as WHY_KINDS

    whats = {w for _, w, _ in rendered}
    assert {"error message", "error hint", "related", "why", "why hint", "lint", "lint hint"} <= whats
    assert len(rendered) > 2000
    del LINT_KINDS, WHY_KINDS  # every kind: test_why.py / test_lint.py CASES cover each one


def test_no_template_leaves_a_hole(rendered):
    bad = []
    for where, what, text in rendered:
        for p in problems(text):
            bad.append(f"{where} {what}: {p}\n    {text}")
    assert not bad, "\n".join(sorted(set(bad))[:40])


def test_every_error_kind_and_warning_has_a_clean_default_hint():
    from gradcli.app.render.panels import WARNING_HINTS
    from gradcli.errors import ERROR_KINDS, error_class

    for kind in ERROR_KINDS:
        hint = error_class(kind)("m").hint or ""
        assert not problems(hint), (kind, hint)
    for kind, hint in WARNING_HINTS.items():
        assert not problems(hint), (kind, hint)


def test_the_new_texts_of_issue_19_are_clean():
    from gradcli.lang import apicheck
    from gradcli.lang.inputs import input_hint

    texts = [input_hint("x", ["x"], ["run", "f.py"]), input_hint("x", ["x", "w"], None),
             *apicheck.unsupported_text("torch.Tensor", "cuda", ["cpu"]),
             *apicheck.unsupported_text("torch.nn", "Linear", ["functional"]),
             apicheck.typo_hint("torch", "tensr", ["tensor"]), apicheck.typo_hint("torch.Tensor", "zzz", ["sum"])]
    for t in texts:
        assert not problems(t), t
