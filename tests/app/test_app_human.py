"""Human rendering pieces: abbreviated values, panels, verdict (values from mathematics)."""

import io

import numpy as np
from rich.console import Console

from app_fakes import ErrorRecord, WarningRecord, result, simple_chain
from gradcli.app.render.human import render_run, short_values, verdict
from gradcli.app.render.panels import error_panel, source_snippet, warning_panel


def _text(renderable, width=80) -> str:
    con = Console(width=width, color_system=None, record=True, file=io.StringIO())
    con.print(renderable)
    return con.export_text()


def test_short_values():
    assert short_values(np.array([1.0, 2.0], dtype=np.float32)) == "[1., 2.]"
    assert short_values(np.array(2.5)) == "2.5"
    assert short_values(np.arange(100.0)) == "[ 0.,  1.,  2., ..., 97., 98., 99.]"
    assert short_values(np.arange(100.0).reshape(10, 10)) == "100 elements: min 0, max 99, mean 49.5"
    assert short_values(np.zeros((0, 2))) == "[]"
    assert short_values(np.array([True, False])) == "[ True, False]"


def test_snippet_caret_counts_characters_not_bytes():
    # Python's col_offset counts UTF-8 bytes: 'é' is 2 bytes, so `y` in "é = 1; y" is at byte 8, char 7
    text = source_snippet("f.py", "", 1, 8, "é = 1; y = x[0]").plain.splitlines()
    assert text[0] == "  --> f.py:1:8"  # 1-based characters, as editors count
    assert text[2].index("^") == text[1].index("y = x")


def test_error_panel_without_position():
    err = ErrorRecord(kind="non_scalar_backward", message="grad can be implicitly created only for scalar outputs",
                      hint="--gradient ones")
    text = _text(error_panel(err, "f.py", "x = 1\n"))
    assert "error: non_scalar_backward" in text and "after the file" in text and "hint: --gradient ones" in text


def test_error_panel_frames_show_the_call_chain():
    src = "def f(t):\n    return t.item()\ny = f(x)\n"
    err = ErrorRecord(kind="item_non_scalar", message="m", line=2, col=11, frames=[(3, 4), (2, 11)])
    text = _text(error_panel(err, "f.py", src), width=100)
    assert "f.py:2:12" in text and "called from f.py:3:5" in text and "3 | y = f(x)" in text


def test_warning_panel_has_kind_line_and_hint():
    w = WarningRecord(kind="non_leaf_grad", message="The .grad attribute ...", line=2)
    text = _text(warning_panel(w, "f.py", "a = 1\nprint(y.grad)\n"), width=100)
    assert "warning: non_leaf_grad" in text and "2 | print(y.grad)" in text and "retain_grad" in text


def test_verdicts():
    ok = result()
    bad = result(ok=False, error=ErrorRecord(kind="shape", message="m", line=3))
    assert verdict(ok).plain == "ok"
    assert verdict(bad).plain == "failed: shape at line 3"
    assert verdict(bad, "shape").plain == "ok: failed with shape at line 3, as --expect-error asked"
    assert verdict(bad, "index").plain == "failed: expected error index, got shape at line 3"
    assert verdict(ok, "index").plain == "failed: expected error index, but the run succeeded"


def test_render_run_order():
    x, y, s = simple_chain()
    res = result([("x", x), ("y", y), ("s", s)], stdout="hello [b]x[/b]",
                  warnings=[WarningRecord(kind="other", message="careful", line=1)],
                  error=ErrorRecord(kind="runtime", message="boom", line=1, col=0), ok=False, source="x = 1\n")
    buf = io.StringIO()
    con = Console(width=120, color_system=None, file=buf)
    render_run(res, con)
    out = buf.getvalue()
    assert out.startswith("hello [b]x[/b]\n")  # printed text first, exactly, newline added
    assert out.index("tensors") < out.index("warning: other") < out.index("error: runtime") < out.index(
        "failed: runtime at line 1")
