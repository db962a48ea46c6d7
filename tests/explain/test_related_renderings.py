"""Each error story (issue 7, must-have 2) in each of its three renderings: the panel of ``gradcli run``,
``--json`` (``error.related``: ``{role, line, col, text}``, col 0-based) and the ``--trace`` table -- for
second_backward, inplace_modified, no_grad_fn and non_scalar_backward, with the exact roles, lines and
columns, and the key facts of each line.  The error itself (kind, line) is PyTorch's: the files are the
ones test_related.py confirms against PyTorch 2.13, and ``test_the_error_is_pytorchs`` checks them again."""

from __future__ import annotations

import json

import pytest
from conftest import src, torch_doc

STORIES = {
    "second_backward": (src("""
        x = torch.tensor(2.0, requires_grad=True)
        y = x.exp()
        z = y * x
        z.backward()
        z.backward()
        """), 5, [
        # (role, line, col, key facts of the text)
        ("built", 3, 0, ("MulBackward0 made here", "saved")),
        ("freed", 4, 0, ("freed MulBackward0's saved tensors", "no retain_graph=True")),
        ("needed", None, None, ("needed", "MulBackward0")),
    ]),
    "inplace_modified": (src("""
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        s = torch.sigmoid(x)
        s.mul_(2)
        s.add_(1)
        s.sum().backward()
        """), 5, [
        ("saved", 2, 0, ("SigmoidBackward0 saved its result `s`", "version 0")),
        ("modified", 3, 0, ("version 0 -> 1",)),
        ("modified", 4, 0, ("version 1 -> 2",)),
    ]),
    "no_grad_fn": (src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            h = x * 2
        loss = (h * 3).sum()
        loss.backward()
        """), 5, [
        ("tracking lost", 3, 4, ("`h`", "torch.no_grad()")),
        ("computed from", 4, 0, ("`loss` computed from `h`",)),
        ("grad off", 2, 5, ("torch.no_grad() turned grad recording off",)),
    ]),
    "non_scalar_backward": (src("""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.backward()
        """), 3, [
        ("root", 2, 0, ("`y`", "shape [3]", "3 elements")),
        ("fix", None, None, ("gradient= of shape [3]", "torch.ones_like(y)", "y.sum().backward()")),
    ]),
}

KINDS = sorted(STORIES)


@pytest.mark.parametrize("kind", KINDS)
def test_json_related(cli, run_schema, kind):
    source, line, story = STORIES[kind]
    code, out, _ = cli(source, "run", "{file}", "--json")
    assert code == 1
    doc = json.loads(out)
    run_schema.validate(doc)
    err = doc["error"]
    assert (err["kind"], err["line"]) == (kind, line)
    assert [(r["role"], r["line"], r["col"]) for r in err["related"]] == [s[:3] for s in story]
    for r, (_, _, _, facts) in zip(err["related"], story):
        assert set(r) == {"role", "line", "col", "text"}
        for fact in facts:
            assert fact in r["text"], (fact, r["text"])


@pytest.mark.parametrize("kind", KINDS)
def test_panel_related(cli, kind):
    source, line, story = STORIES[kind]
    code, out, _ = cli(source, "run", "{file}")
    assert code == 1
    panel = out[out.index(f"error: {kind}"):]
    lines = source.splitlines()
    pos = 0
    for role, rline, col, facts in story:
        if rline is None:  # a line of the story without a place in the file: "role: text"
            at = panel.index(f"{role}: ", pos)
        else:  # "role case.py:LINE:COL" (1-based column), then the source line with a caret under COL
            at = panel.index(f"{role} case.py:{rline}:{col + 1}", pos)
            numbered = f"{rline} | {lines[rline - 1]}"
            assert numbered in panel[at:], numbered
            caret_line = panel[at:].splitlines()[2]
            assert caret_line.index("^") - caret_line.index("|") - 2 == col
        # the text may wrap inside the panel: compare without the panel's borders and line breaks
        flat = " ".join(seg.strip("│ ").strip() for seg in panel[at:].splitlines()[:8])
        for fact in facts:
            assert fact in flat, (fact, flat)
        pos = at + 1
    assert f"failed: {kind} at line {line}" in out


@pytest.mark.parametrize("kind", KINDS)
def test_trace_related(cli, kind):
    source, line, story = STORIES[kind]
    code, out, _ = cli(source, "run", "{file}", "--trace")
    assert code == 1
    table = out[out.index(f"error story: {kind}"):].splitlines()
    rows = [r for r in table[3:] if r and not r.startswith(" ")]  # first line of each row
    want = [(role, rline) for role, rline, _, _ in story] + [("error", line)]
    got = []
    for r in rows[:len(want)]:
        role = next(w[0] for w in want if r.startswith(w[0] + " ") or r == w[0])
        rest = r[len(role):].split()
        got.append((role, int(rest[0]) if rest and rest[0].isdigit() else None))
    assert got == want
    assert table[-1] == f"failed: {kind} at line {line}" or f"failed: {kind} at line {line}" in out


@pytest.mark.torch
@pytest.mark.parametrize("kind", KINDS)
def test_the_error_is_pytorchs(kind):
    source, line, _ = STORIES[kind]
    doc = torch_doc(source)
    assert (doc["error"]["kind"], doc["error"]["line"]) == (kind, line)
