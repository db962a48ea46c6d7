"""Issue 19, must-have 6: each sample's comments agree with its run.

A trailing comment is a claim about its line, checked against what gradcli does with the sample (whose
behaviour, in turn, test_samples.py holds to PyTorch's recording):

* ``fails`` -- the run fails at this line; every grad_fn it names is the one the error (its message and
  story) names;
* a lint kind followed by ``:`` (``grad_accumulates: ...``) -- ``gradcli lint`` finds that kind here;
* a grad_fn name (``MulBackward0``, ``AccumulateGrad``) -- a node of that name is in the run's graph, a
  tensor's grad_fn, or in what the file printed;
* ``line N`` -- after a grad_fn name, that node was made at line N; after ``backward``, line N calls a
  backward; else line N is code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.py"))
GRAD_FN = re.compile(r"\b([A-Z][A-Za-z]*Backward\d*|AccumulateGrad)\b")


def _comment(line: str) -> str:
    """The trailing comment of a code line ('' for none, or for a line that is only a comment)."""
    code, sep, rest = line.partition("#")
    if not sep or not code.strip() or code.count("'") % 2 or code.count('"') % 2:
        return ""
    return rest.strip()


def _run(sample: Path):
    from gradcli.app.graph import build_graph
    from gradcli.app.oracle import header_options, options_from_args
    from gradcli.app.related import enrich
    from gradcli.lang.run import run_file

    src = sample.read_text(encoding="utf-8")
    args = header_options(src)
    if "--expect-error" in args:
        i = args.index("--expect-error")
        del args[i:i + 2]
    options = options_from_args(args)
    result = enrich(run_file(src, sample.name, options), options)
    graph = build_graph(result)
    return src, result, graph


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_comments_agree_with_the_run(sample):
    from gradcli.app.lint import KINDS, lint_source
    from gradcli.app.records import grad_fn_name

    src, result, graph = _run(sample)
    lines = src.splitlines()
    nodes = {(n.name, n.line) for n in graph.nodes}
    names = {n for n, _ in nodes} | {grad_fn_name(t) for _, t in result.tensors} | set(GRAD_FN.findall(result.stdout))
    err = result.error
    story = "" if err is None else " ".join([err.message, err.hint or ""] + [str(r.get("text") or "")
                                                                            for r in err.related])
    lint = {(f.kind, f.line) for f in lint_source(src, sample.name).findings}
    checked = 0
    for i, line in enumerate(lines, 1):
        comment = _comment(line)
        if not comment:
            continue
        named = GRAD_FN.findall(comment)
        if re.search(r"\bfails\b", comment):
            assert err is not None and err.line == i, f"line {i} says it fails: {comment}"
            for n in named:
                assert n in story, f"line {i} names {n}, the error names: {story}"
            checked += 1
            continue
        kind = comment.split(":", 1)[0]
        if kind in KINDS:
            assert (kind, i) in lint, f"line {i}: lint finds no {kind} here ({sorted(lint)})"
            checked += 1
        for n in named:
            assert n in names, f"line {i} names {n}; the run has {sorted(x for x in names if x)}"
            checked += 1
        for m in re.finditer(r"(\b[A-Z]\w*Backward\d*\b|\bbackward\b)?[^.;]*?\bline (\d+)", comment):
            what, n = m.group(1), int(m.group(2))
            assert 1 <= n <= len(lines) and lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#"), \
                f"line {i} names line {n}, which is not code"
            if what == "backward":
                assert "backward(" in lines[n - 1], f"line {i}: line {n} calls no backward"
            elif what:
                assert any(node_line == n for _, node_line in nodes if what.startswith(_)), \
                    f"line {i}: no {what} made at line {n}"
            checked += 1
    del checked  # samples without claims are fine


def test_second_backward_names_the_node_the_error_names():
    """The comment issue 19 found wrong: the panel names MulBackward0's saved constant, not ExpBackward0."""
    src, result, _ = _run(ROOT / "samples" / "second_backward.py")
    line8 = src.splitlines()[7]
    assert "MulBackward0" in _comment(line8) and "MulBackward0" in result.error.message
