"""``gradcli modes`` (issue 7, must-have 4): the target under each off-switch. Per mode: the rewrite (line
numbers kept), the flags and gradients it gives, what differs from the file as written; every variant
behaves exactly as PyTorch runs the same rewritten file."""

from __future__ import annotations

import json

import pytest
from conftest import src, torch_doc

from gradcli.app.compare import diff_documents
from gradcli.app.modes import MODES, MODULE_MODES, SUMMARY, rewrite, run_modes
from gradcli.app.records import run_document
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

FILE = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    loss = (h * h).sum() + (w * 2).sum()
    loss.backward()
    """)

# mode -> (h's flags, x.grad, w.grad, outcome)
EXPECTED = {
    # h = x*w; loss = sum(h^2) + sum(2w): dloss/dx = 2 h w = 2 x w^2, dloss/dw = 2 h x + 2 = 2 x^2 w + 2
    "as written": ("MulBackward0", [18.0, 64.0], [8.0, 34.0], None),
    # h is a constant: only the (w * 2) term reaches the leaves
    "no_grad": ("leaf, no rg", None, [2.0, 2.0], None),
    "set_grad_enabled(False)": ("leaf, no rg", None, [2.0, 2.0], None),
    "inference_mode": ("leaf, no rg", None, [2.0, 2.0], None),
    "detach()": ("leaf, no rg", None, [2.0, 2.0], None),
    # a non-leaf cannot switch requires_grad off: the run stops at the target's line, before any backward
    "requires_grad_(False)": ("MulBackward0", None, None, ("non_leaf_requires_grad", 3)),
    # .data cuts h out of the graph as detach() does (the in-place difference is in tests/explain/test_lint.py)
    ".data": ("leaf, no rg", None, [2.0, 2.0], None),
}
#: the switches that apply to a file calling no nn.Module (model.eval() needs one)
PLAIN = tuple(m for m in MODES if m not in MODULE_MODES)


@pytest.fixture(scope="module")
def report():
    return run_modes(FILE, "case.py", RunOptions(), "h")


def test_modes_are_the_seven_switches():
    assert MODES == ("as written", "no_grad", "set_grad_enabled(False)", "inference_mode", "detach()",
                     "requires_grad_(False)", ".data", "model.eval()")
    assert MODULE_MODES == ("model.eval()",)
    assert set(SUMMARY) == set(MODES[1:])


@pytest.mark.parametrize("mode, line3", [
    ("no_grad", "with torch.no_grad(): h = x * w"),
    ("set_grad_enabled(False)", "with torch.set_grad_enabled(False): h = x * w"),
    ("inference_mode", "with torch.inference_mode(): h = x * w"),
    ("detach()", "h = x * w; h = h.detach()"),
    ("requires_grad_(False)", "h = x * w; h.requires_grad_(False)"),
    (".data", "h = x * w; h = h.data"),
])
def test_rewrite_keeps_every_line(mode, line3):
    text, lines = rewrite(FILE, "h", mode)
    assert lines == [3]
    new, old = text.splitlines(), FILE.splitlines()
    assert len(new) == len(old) and new[2] == line3
    assert [a for i, a in enumerate(new) if i != 2] == [a for i, a in enumerate(old) if i != 2]


def test_rewrite_inside_a_block_keeps_the_indentation():
    text, lines = rewrite("for i in range(2):\n    h = i * 2\n", "h", "no_grad")
    assert text == "for i in range(2):\n    with torch.no_grad(): h = i * 2\n" and lines == [2]


def test_module_modes_are_left_out_without_a_module(report):
    assert [r.mode for r in report.runs] == list(PLAIN)


@pytest.mark.parametrize("mode", PLAIN)
def test_mode(report, mode):
    run = next(r for r in report.runs if r.mode == mode)
    flags, xg, wg, outcome = EXPECTED[mode]
    assert run.tensors["h"].flags() == flags
    for name, want in (("x", xg), ("w", wg)):
        got = run.tensors[name].grad
        assert (got is None) == (want is None)
        if want is not None:
            assert got.tolist() == want
    assert run.error == outcome
    if mode != "as written":
        assert report.differs(run, "h") == (mode != "requires_grad_(False)")
        assert report.differs(run, "x")


def test_why_notes_name_the_switch(report):
    run = next(r for r in report.runs if r.mode == "no_grad")
    note = run.why["h"]
    assert note.kind == "no_grad" and note.line == 3
    assert next(r for r in report.runs if r.mode == "inference_mode").why["h"].kind == "inference_mode"
    assert next(r for r in report.runs if r.mode == "detach()").why["h"].kind == "detach"


@pytest.mark.torch
@pytest.mark.parametrize("mode", PLAIN)
def test_each_variant_runs_as_in_pytorch(mode):
    text, _ = rewrite(FILE, "h", mode)
    mine = run_document(run_file(text, "case.py", RunOptions()))
    assert diff_documents(mine, torch_doc(text)) == []


def test_default_target_is_the_first_tensor_with_history():
    assert run_modes(FILE, "case.py", RunOptions()).target == "h"


def test_cli_table_marks_the_differences(cli):
    code, out, _ = cli(FILE, "modes", "{file}", "--target", "h")
    assert code == 0
    head = out.splitlines()[0]
    assert "`h` (line 3) under each grad off-switch" in head
    for mode in ("as written", "no_grad", "inference_mode", "detach()"):
        assert mode in out
    assert "* leaf, no rg" in out and "non_leaf_requires_grad" in out and "* (not bound)" in out
    assert "* differs from the file as written" in out


def test_cli_json(cli):
    code, out, _ = cli(FILE, "modes", "{file}", "--json")
    doc = json.loads(out)
    assert doc["schema"] == "gradcli.modes/1" and doc["target"] == "h" and doc["lines"] == [3]
    assert [m["mode"] for m in doc["modes"]] == list(PLAIN)
    nog = doc["modes"][1]
    assert nog["differs"] == ["x", "w", "h"]
    assert next(t for t in nog["tensors"] if t["name"] == "h")["requires_grad"] is False
    assert doc["modes"][5]["error"] == {"kind": "non_leaf_requires_grad", "line": 3}


def test_cli_bad_target(cli):
    code, out, err = cli(FILE, "modes", "{file}", "--target", "nope")
    assert code == 2 and "no top-level assignment" in err


def test_cli_narrow_console_gives_one_row_per_tensor_and_mode(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    code, out, _ = cli(FILE, "modes", "{file}", "--target", "h")
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    # tensor h: MulBackward0 as written; a leaf without requires_grad under the four switches that cut it
    start = next(i for i, r in enumerate(rows) if r[:1] == ["h"])
    assert rows[start] == ["h", "as", "written", "MulBackward0", "None"]
    assert rows[start + 1] == ["no_grad", "*", "leaf,", "no", "rg", "None"]
    assert rows[start + 2] == ["set_grad_enabled(False)", "*", "leaf,", "no", "rg", "None"]
    assert rows[start + 5] == ["requires_grad_(False)", "MulBackward0", "None"]
    x = next(r for r in rows if r[:1] == ["x"])
    assert x == ["x", "as", "written", "leaf,", "rg", "[18.,", "64.]"]
    out_at = next(i for i, r in enumerate(rows) if r[:1] == ["outcome"])
    assert rows[out_at + 5][:3] == ["requires_grad_(False)", "*", "non_leaf_requires_grad"]
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 72


def test_cli_side_by_side_at_120_columns_names_each_failure_below(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = cli(FILE, "modes", "{file}", "--target", "h")
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split() == ["tensor", "as", "written", "no_grad", "(False)", "inference_mode", "detach()",
                                "(False)", ".data"]
    h = lines.index(next(line for line in lines if line.startswith("h ")))
    assert lines[h].split() == ["h", "MulBackward0", "*", "leaf,", "no", "rg", "*", "leaf,", "no", "rg", "*",
                                "leaf,", "no", "rg", "*", "leaf,", "no", "rg", "MulBackward0", "*", "leaf,", "no",
                                "rg"]
    assert lines[h + 1].split() == ["None"] * 7
    x = lines.index(next(line for line in lines if line.startswith("x ")))
    assert lines[x + 1].split() == ["[18.,", "64.]", "None", "None", "None", "None", "None", "None"]
    assert "* requires_grad_(False): failed with non_leaf_requires_grad at line 3" in lines
    assert max(len(line.rstrip()) for line in lines) <= 120
    # the one-line summaries follow the table, one per switch
    at = lines.index("what each switch does:")
    assert [ln.split()[0] for ln in lines[at + 1:] if ln.startswith("  ") and not ln.startswith("   ")] == \
        list(PLAIN[1:])
