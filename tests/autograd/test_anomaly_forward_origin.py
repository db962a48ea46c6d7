"""Anomaly mode's forward watch (issue 23, must-have 5): the first forward op that made a NaN and an inf.

PyTorch's anomaly mode names only the backward node; the forward origin is gradcli's addition.  The oracle
is live PyTorch: the same file runs under a ``TorchDispatchMode`` that sees every aten op of the forward
(backward ops excluded: ``torch._C._current_graph_task_id() != -1``) and notes the first op whose result
holds a NaN (an inf) that none of its tensor inputs held, with the file's line.  gradcli must name the
same kind, line and op (aten's op name without its overload: ``log.default`` -> ``log``).
"""

from __future__ import annotations

import json
import textwrap
import traceback
from pathlib import Path

import jsonschema
import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

SNIPPETS = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets"
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "src" / "gradcli" / "schemas" /
                     "run.schema.json").read_text())


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


CASES = {
    "log_then_sub": src("""
        import torch
        x = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
        b = torch.log(x * 2)
        c = b - b
        d = c.exp().sum()
        d.backward()
        """),
    "divide_by_zero": src("""
        import torch
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = torch.tensor([0.0, 1.0])
        q = x / y
        q.sum().backward()
        """),
    "nan_only_in_backward": src("""
        import torch
        x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
        y = torch.sqrt(x)
        (y * 0).sum().backward()
        """),
    "no_grad_ops_too": src("""
        import torch
        x = torch.tensor([-1.0, 4.0])
        with torch.no_grad():
            r = torch.sqrt(x)
        """),
}
REAL = ["gh_issues__issue_108618_where_log2_nan", "gh_issues__issue_68425_where_exp_overflow",
        "gh_issues__issue_18287_where_cos_inf", "qa_semantics__forum_mse_sqrt_nan_94875"]


def _source(case: str) -> str:
    return CASES[case] if case in CASES else (SNIPPETS / f"{case}.py").read_text()


def torch_origins(source: str) -> list[tuple[str, int, str]]:
    """``[(kind, line, op)]`` of the first forward aten op that made a NaN / an inf, in live PyTorch."""
    torch = pytest.importorskip("torch")
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    found: dict = {}

    class Watch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if torch._C._current_graph_task_id() != -1:  # an op of a backward pass
                return out
            ins = [a for a in tree_leaves((args, kwargs or {})) if isinstance(a, torch.Tensor)]
            outs = [o for o in tree_leaves(out) if isinstance(o, torch.Tensor)]
            for kind, test in (("nan", torch.isnan), ("inf", torch.isinf)):
                if kind in found:
                    continue
                made = any(o.is_floating_point() and bool(test(o).any()) for o in outs)
                had = any(i.is_floating_point() and bool(test(i).any()) for i in ins)
                if made and not had:
                    line = next(f.lineno for f in reversed(traceback.extract_stack()) if f.filename == "case.py")
                    found[kind] = (kind, line, func.__name__.split(".")[0])
            return out

    code = compile(source, "case.py", "exec")
    with Watch():
        try:
            exec(code, {"__name__": "__main__"})
        except Exception:  # noqa: BLE001 - a file's own error ends its forward; the origins so far stand
            pass
    return sorted(found.values(), key=lambda o: (o[1], o[0]))


def gradcli_origins(source: str, **options) -> tuple[list, object]:
    result = run_file(source, "case.py", RunOptions(**options))
    got = result.forward_nonfinite
    return (None if got is None else [(o["kind"], o["line"], o["op"]) for o in got]), result


@pytest.mark.torch
@pytest.mark.parametrize("case", list(CASES) + REAL)
def test_forward_origin_is_pytorchs_first_nonfinite_op(case):
    source = _source(case)
    want = torch_origins(source)
    got, _ = gradcli_origins(source, detect_anomaly=True)
    assert got == want


def test_the_expected_origins():
    """The same facts by hand (mathematics: log(0) = -inf, -inf - -inf = NaN, 1 / 0 = inf, sqrt(-1) = NaN)."""
    got, _ = gradcli_origins(CASES["log_then_sub"], detect_anomaly=True)
    assert got == [("inf", 3, "log"), ("nan", 4, "sub")]
    got, r = gradcli_origins(CASES["divide_by_zero"], detect_anomaly=True)
    assert got == [("inf", 4, "div")]
    assert r.forward_nonfinite[0]["inputs"] == ["[1., 2.]", "[0., 1.]"]
    assert r.forward_nonfinite[0]["count"] == 1 and r.forward_nonfinite[0]["numel"] == 2
    got, _ = gradcli_origins(CASES["nan_only_in_backward"], detect_anomaly=True)
    assert got == []  # the NaN is made by SqrtBackward0, a backward op
    got, _ = gradcli_origins(CASES["no_grad_ops_too"], detect_anomaly=True)
    assert got == [("nan", 4, "sqrt")]


def test_no_watch_without_anomaly_mode():
    got, _ = gradcli_origins(CASES["log_then_sub"])
    assert got is None


def test_the_files_own_anomaly_block_turns_the_watch_on_inside_it():
    source = src("""
        import torch
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        a = torch.log(x)
        with torch.autograd.detect_anomaly():
            b = torch.log(x) * 0
        """)
    got, _ = gradcli_origins(source)
    assert got == [("inf", 5, "log"), ("nan", 5, "mul")]  # line 3 made an -inf before the watch


def test_nan_error_names_the_forward_origin():
    """PyTorch's anomaly error names the backward node (ExpBackward0 here, as PyTorch 2.13 raises it for this
    file: tests/explain/test_why.py checks the node live); gradcli adds the forward origins as related lines."""
    _, r = gradcli_origins(CASES["log_then_sub"], detect_anomaly=True)
    assert r.error is not None and r.error.message.startswith("Function 'ExpBackward0' returned nan values")
    rel = {(e["role"], e["line"]) for e in r.error.related}
    assert {("forward", 5), ("first inf", 3), ("first NaN", 4)} <= rel


@pytest.mark.parametrize("case", REAL)
def test_json_document_carries_the_origins(case):
    from gradcli.app.records import run_document

    result = run_file(_source(case), f"{case}.py", RunOptions(detect_anomaly=True))
    doc = run_document(result)
    jsonschema.validate(doc, SCHEMA)
    assert isinstance(doc["forward_nonfinite"], list)
    for o in doc["forward_nonfinite"]:
        assert o["text"].startswith(f"{o['op']} (") and o["line"] is not None
    plain = run_document(run_file(_source(case), f"{case}.py", RunOptions()))
    assert "forward_nonfinite" not in plain  # only when anomaly mode was on


def test_the_watch_never_changes_the_run():
    """The same file with and without the watch: the same values, gradients and printed text (the watch only
    looks); and a backward-only NaN does not trip it."""
    for case in REAL:
        a = run_file(_source(case), "case.py", RunOptions())
        from gradcli.autograd import anomaly

        anomaly.force_watch(True)
        try:
            b = run_file(_source(case), "case.py", RunOptions())
        finally:
            anomaly.force_watch(False)
        assert a.stdout == b.stdout and a.ok == b.ok
        for (na, ta), (nb, tb) in zip(a.tensors, b.tensors):
            assert na == nb
            assert ta._data.tobytes() == tb._data.tobytes()
        assert b.forward_nonfinite is not None and a.forward_nonfinite is None
