"""Why-notes against every PyTorch 2.13 record of the repository's conformance cases (issue 7, must-have 1):
a tensor gets a note exactly when PyTorch left its ``.grad`` None or all zeros, and the note agrees with the
flags PyTorch recorded (``non_leaf`` only for what PyTorch shows as a non-leaf; the reasons that say the
tensor does not require grad only for tensors PyTorch shows with requires_grad False -- except a view made
with grad off, which PyTorch shows requiring grad, and the note says so; the reasons about a backward that
missed it only for tensors that require grad; ``grad`` "zeros" exactly when PyTorch's grad is not None).
Files whose header passes options that change the run are left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli.app.related import enrich
from gradcli.app.why import explain_all
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

ROOT = Path(__file__).resolve().parents[2]
NO_REQUIRES_GRAD = {"no_grad", "set_grad_enabled", "inference_mode", "detach", "data", "requires_grad_false",
                    "requires_grad_disabled", "grad_result"}
REQUIRES_GRAD = {"not_reachable", "excluded_by_inputs", "no_backward", "backward_failed", "autograd_grad",
                 "grad_reset"}


def _changes_the_run(source: str) -> bool:
    first = source.split("\n", 1)[0].strip()
    if not (first.startswith("#") and first[1:].strip().startswith("gradcli:")):
        return False
    return any(o.startswith("--") and o != "--expect-error" for o in first[1:].strip()[len("gradcli:"):].split())


CASES = [s for s in sorted((ROOT / "tests" / "conformance").glob("*/*.py"))
         if s.with_suffix(".expected.json").exists() and not _changes_the_run(s.read_text(encoding="utf-8"))]


def _all_zero(v) -> bool:
    """Every element is 0, and there is one: an empty gradient has nothing to explain (why.explain)."""
    return _zeros_only(v) and _has_element(v)


def _nonfinite(v) -> str | None:
    """"NaN" when PyTorch's recorded values hold a NaN, "inf" when they hold an inf and no NaN, else None."""
    flat, stack = [], [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        else:
            flat.append(x)
    if "nan" in flat:
        return "NaN"
    return "inf" if "inf" in flat or "-inf" in flat else None


def _zeros_only(v) -> bool:
    return all(_zeros_only(x) for x in v) if isinstance(v, list) else v == 0


def _has_element(v) -> bool:
    return any(_has_element(x) for x in v) if isinstance(v, list) else True


def test_there_are_recorded_files():
    assert len(CASES) >= 100


#: cases whose gradcli run fails where PyTorch's does not (tests/conformance/test_cases.py XFAIL says why):
#: no tensors to explain
#: (none since 2026-12-02: type(m) and Tensor.resize run; a case added here must be strict-xfail in test_cases.py)
RUN_FAILS: dict = {
    "real_snippets/docs__func_vmap_doc": "vmap of an output that requires grad outside vmap is refused",
}


def _param(s):
    name = f"{s.parent.name}/{s.stem}"
    return pytest.param(s, id=str(s.relative_to(ROOT)),
                        marks=[pytest.mark.xfail(reason=RUN_FAILS[name], strict=True)] if name in RUN_FAILS else [])


@pytest.mark.parametrize("src", [_param(s) for s in CASES])
def test_notes_agree_with_pytorch(src):
    doc = json.loads(src.with_suffix(".expected.json").read_text(encoding="utf-8"))
    opts = RunOptions()
    result = run_file(src.read_text(encoding="utf-8"), src.name, opts)
    enrich(result, opts)
    notes = explain_all(result, opts)
    for t in doc["tensors"]:
        g = t["grad"]
        if isinstance(g, dict):  # a summarised (truncated) tensor: no values to judge by
            continue
        note = notes.get(t["name"])
        bad = None if g is None else _nonfinite(g)
        assert (note is not None) == (g is None or _all_zero(g) or bad is not None), \
            (t["name"], g, note and note.message)
        if note is None:
            continue
        if bad is not None:  # a NaN/inf note says which, as PyTorch's gradient holds it
            assert note.kind == "nonfinite_gradient" and note.grad == bad, (t["name"], note.grad, g)
            continue
        assert (note.grad == "zeros") == (g is not None), t["name"]
        if note.kind == "non_leaf":
            assert not t["is_leaf"], (t["name"], note.message)
        if note.kind in NO_REQUIRES_GRAD:
            assert not t["requires_grad"] or "reports requires_grad=True" in note.message, (t["name"], note.message)
        if note.kind in REQUIRES_GRAD:
            assert t["requires_grad"], (t["name"], note.message)
