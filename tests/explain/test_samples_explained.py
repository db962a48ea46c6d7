"""The samples that show each explainer (samples/*.py; their PyTorch-recorded runs are checked by
tests/samples) explain what their header comments say."""

from __future__ import annotations

from pathlib import Path

from gradcli.app.lint import lint_source
from gradcli.app.modes import run_modes
from gradcli.app.related import enrich
from gradcli.app.vjp import recording
from gradcli.app.why import explain_all
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def run(name: str, **options):
    opts = RunOptions(**options)
    source = (SAMPLES / name).read_text(encoding="utf-8")
    result = run_file(source, f"samples/{name}", opts)
    enrich(result, opts)
    return result, opts, source


def test_why_no_grad_sample():
    result, opts, _ = run("why_no_grad.py")
    kinds = {n: (note.kind, note.line) for n, note in explain_all(result, opts).items()}
    assert kinds == {"w": ("non_leaf_copy", 4), "b": ("requires_grad_false", 5), "s": ("no_grad", 7),
                     "d": ("detach", 8), "u": ("not_reachable", 12), "h": ("non_leaf", 10),
                     "loss": ("non_leaf", 11)}


def test_why_zero_grad_sample():
    result, opts, _ = run("why_zero_grad.py")
    notes = explain_all(result, opts)
    kinds = {n: (note.kind, note.line, note.grad) for n, note in notes.items()}
    assert kinds == {"w": ("excluded_by_inputs", 10, "None"), "r": ("zero_gradient", 9, "zeros"),
                     "i": ("inference_mode", 7, "None"), "e": ("data", 8, "None"),
                     "loss": ("non_leaf", 9, "None"), "g": ("grad_result", 11, "None")}
    assert "ReluBackward0" in notes["r"].message and "inputs=[`x`, `r`]" in notes["w"].message


def test_lost_tracking_sample():
    result, _, _ = run("lost_tracking.py")
    assert (result.error.kind, result.error.line) == ("no_grad_fn", 7)
    assert [(r["role"], r["line"]) for r in result.error.related] == [
        ("tracking lost", 5), ("computed from", 6), ("grad off", 4)]


def test_error_samples_tell_both_ends():
    result, _, _ = run("second_backward.py")
    assert [(r["role"], r["line"]) for r in result.error.related] == [("built", 5), ("freed", 6), ("needed", None)]
    result, _, _ = run("inplace_mistake.py")
    assert [(r["role"], r["line"]) for r in result.error.related] == [("saved", 5), ("modified", 6)]
    result, _, _ = run("nonscalar_backward.py")
    assert [(r["role"], r["line"]) for r in result.error.related] == [("root", 5), ("fix", None)]


def test_lint_mistakes_sample_and_its_run():
    result, _, source = run("lint_mistakes.py")
    found = [(f.kind, f.line, f.certain) for f in lint_source(source, "lint_mistakes.py").findings]
    assert found == [("grad_accumulates", 6, True), ("non_leaf_grad", 10, True), ("data_use", 11, True),
                     ("second_backward", 12, True)]
    assert (result.error.kind, result.error.line) == ("second_backward", 12)
    assert ("non_leaf_grad", 10) in [(w.kind, w.line) for w in result.warnings]


def test_modes_demo_sample():
    source = (SAMPLES / "modes_demo.py").read_text(encoding="utf-8")
    report = run_modes(source, "samples/modes_demo.py", RunOptions(), "h")
    assert [r.mode for r in report.runs if report.differs(r, "h")] == [
        "no_grad", "set_grad_enabled(False)", "inference_mode", "detach()", ".data"]


def test_vjp_view_sample():
    source = (SAMPLES / "vjp_view.py").read_text(encoding="utf-8")
    with recording() as rec:
        result = run_file(source, "samples/vjp_view.py", RunOptions())
    [view] = rec.name_views(result)
    [x] = view.inputs
    assert x.name == "x" and x.jacobian.tolist() == [[2.0, 2.0, 0.0], [4.0, -4.0, 6.0]]
    assert x.vjp.tolist() == [-2.0, 6.0, -6.0] and x.matches
