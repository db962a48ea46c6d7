"""Why-notes (issue 7, must-have 1): one case per explanation kind, with the exact line and the key facts of
the note; and, for every case, PyTorch's run of the same file shows the state the note explains (the
gradient really is None, or all zeros, with the flags the note gives)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import pytest
from conftest import all_zero, gradcli_run, src, torch_doc, torch_tensor

from gradcli.app.why import KINDS, Explainer, explain_all, explain_name


@dataclass
class Case:
    id: str
    kind: str
    source: str
    name: str
    line: Optional[int]
    facts: tuple = ()  # substrings of the message
    related: tuple = ()  # (role, line) pairs that must be among the note's related lines
    grad: str = "None"  # "None" or "zeros"
    options: dict = field(default_factory=dict)
    torch_flags: dict = field(default_factory=dict)  # requires_grad / is_leaf / grad_fn in PyTorch


CASES = [
    Case("non_leaf", "non_leaf", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y.sum()
        z.backward()
        """), "y", 2, ("not a leaf", "MulBackward0", "retain_grad", "`x` gets the gradient"),
         (("computed", 2),), torch_flags={"is_leaf": False, "grad_fn": "MulBackward0"}),
    Case("non_leaf_copy_scale", "non_leaf_copy", src("""
        w = torch.randn(3, requires_grad=True) * 0.01
        loss = (w * 2).sum()
        loss.backward()
        """), "w", 1, ("copy", "MulBackward0", "no name refers to", "created at line 1"),
         (("copy made", 1), ("leaf created", 1)), torch_flags={"is_leaf": False, "grad_fn": "MulBackward0"}),
    Case("non_leaf_copy_rebind", "non_leaf_copy", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x = x.double()
        loss = (x * x).sum()
        loss.backward()
        """), "x", 2, ("ToCopyBackward0", "created at line 1"), (("copy made", 2), ("leaf created", 1)),
         torch_flags={"is_leaf": False, "grad_fn": "ToCopyBackward0"}),
    Case("non_leaf_copy_to", "non_leaf_copy", src("""
        v = torch.randn(2, requires_grad=True).to(torch.float64)
        loss = (v * v).sum()
        loss.backward()
        """), "v", 1, ("ToCopyBackward0", "no name refers to", "created at line 1"),
         (("copy made", 1), ("leaf created", 1)), torch_flags={"is_leaf": False, "grad_fn": "ToCopyBackward0"}),
    Case("non_leaf_copy_float", "non_leaf_copy", src("""
        w = torch.randn(2, dtype=torch.float64, requires_grad=True).float()
        loss = (w * 3).sum()
        loss.backward()
        """), "w", 1, ("ToCopyBackward0", "no name refers to"), (("copy made", 1), ("leaf created", 1)),
         torch_flags={"is_leaf": False, "grad_fn": "ToCopyBackward0", "dtype": "float32"}),
    Case("grad_result_autograd_grad", "grad_result", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        g, = torch.autograd.grad(y, x)
        h = g * 2
        """), "g", 3, ("torch.autograd.grad returned at line 3", "without create_graph=True"),
         (("returned", 3),), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("grad_result_computed_from_it", "grad_result", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        g, = torch.autograd.grad(y, x)
        h = g * 2
        """), "h", 3, ("`h` was computed at line 4 (`h = g * 2`) from `g`", "create_graph=True"),
         (("computed from", 4), ("returned", 3)), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("grad_result_dot_grad", "grad_result", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        g = x.grad
        """), "g", 3, ("`x.grad`, read at line 3", "without create_graph=True"), (("read", 3),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("grad_result_linear_with_create_graph", "grad_result", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward(create_graph=True)
        g = x.grad
        """), "g", 3, ("`x.grad`, read at line 3", "has no history", "linear function"), (("read", 3),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("grad_result_autograd_grad_linear_with_create_graph", "grad_result", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        g, = torch.autograd.grad((x * 3).sum(), x, create_graph=True)
        """), "g", 2, ("torch.autograd.grad returned at line 2", "has no history", "linear function"),
         (("returned", 2),), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("no_grad", "no_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            y = x * 2
        z = (x * y).sum()
        z.backward()
        """), "y", 3, ("inside `with torch.no_grad():` (line 2)", "does not require grad"),
         (("computed", 3), ("grad off", 2)), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("no_grad_view_of_a_leaf", "no_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            v = x[0]
        z = (v * 3 + x).sum()
        z.backward()
        """), "v", 3, ("a view of `x`", "reports requires_grad=True", "no grad_fn"), (("grad off", 2),),
         torch_flags={"requires_grad": True, "is_leaf": True, "grad_fn": None}),
    Case("no_grad_option", "no_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        """), "y", 2, ("--no-grad",), (("computed", 2),), options={"no_grad": True},
         torch_flags={"requires_grad": False}),
    Case("set_grad_enabled_call", "set_grad_enabled", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        torch.set_grad_enabled(False)
        y = x * 2
        torch.set_grad_enabled(True)
        z = (x * y).sum()
        z.backward()
        """), "y", 3, ("after `torch.set_grad_enabled(False)` (line 2)",), (("computed", 3), ("grad off", 2)),
         torch_flags={"requires_grad": False}),
    Case("set_grad_enabled_with", "set_grad_enabled", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.set_grad_enabled(False):
            y = x * 2
        z = (x * y).sum()
        z.backward()
        """), "y", 3, ("inside `with torch.set_grad_enabled(False):` (line 2)",), (("grad off", 2),),
         torch_flags={"requires_grad": False}),
    Case("inference_mode", "inference_mode", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.inference_mode():
            y = x * 2
        z = (x * 3).sum()
        z.backward()
        """), "y", 3, ("inside `with torch.inference_mode():` (line 2)",), (("grad off", 2),),
         torch_flags={"requires_grad": False}),
    Case("no_grad_decorator", "no_grad", src("""
        @torch.no_grad()
        def double(t):
            return t * 2
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = double(x)
        z = (x * y).sum()
        z.backward()
        """), "y", 3, ("decorated @torch.no_grad() (line 1)",), (("computed", 3), ("grad off", 1)),
         torch_flags={"requires_grad": False}),
    Case("detach", "detach", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        d = y.detach()
        loss = (x * 3).sum()
        loss.backward()
        """), "d", 3, ("detach() of `y`", "does not require grad"), (("cut", 3),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("detach_chain", "detach", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        e = d * 3
        loss = (x * e).sum()
        loss.backward()
        """), "e", 2, ("computed at line 3", "from `d`", "detach() of `x` at line 2"),
         (("computed from", 3), ("cut", 2)), torch_flags={"requires_grad": False}),
    Case("detach_inplace", "detach", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.detach_()
        loss = (x * 3).sum()
        loss.backward()
        """), "y", 3, ("detach_()",), (("cut", 3),), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("data", "data", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        e = x.data
        loss = (x * 3).sum()
        loss.backward()
        """), "e", 2, (".data of `x`", "version checks"), (("cut", 2),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("data_in_expression", "data", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x.data * 2
        loss = (h * x).sum()
        loss.backward()
        """), "h", 2, ("from `x.data`", "no history"), (("cut", 2),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("detach_in_expression_then_used", "detach", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x.detach() * 2 + 1
        k = h * 2
        loss = (k * x).sum()
        loss.backward()
        """), "k", 2, ("`k` was computed at line 3 (`k = h * 2`) from `h`", "from `x.detach()`"),
         (("computed from", 3), ("cut", 2)), torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("requires_grad_false", "requires_grad_false", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.ones(2)
        loss = (x * w).sum()
        loss.backward()
        """), "w", 2, ("created at line 2", "without requires_grad=True"), (("created", 2),),
         torch_flags={"requires_grad": False, "is_leaf": True}),
    Case("requires_grad_false_computed", "requires_grad_false", src("""
        a = torch.ones(2)
        b = a * 3
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * b).sum()
        loss.backward()
        """), "b", 2, ("computed at line 2", "only from `a`", "which does not require grad"),
         (("computed from", 2), ("created", 1)), torch_flags={"requires_grad": False}),
    Case("requires_grad_disabled", "requires_grad_disabled", src("""
        u = torch.ones(2, requires_grad=True)
        u.requires_grad_(False)
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * u).sum()
        loss.backward()
        """), "u", 2, ("switched off at line 2",), (("switched off", 2),), torch_flags={"requires_grad": False}),
    Case("requires_grad_attribute", "requires_grad_disabled", src("""
        u = torch.ones(2, requires_grad=True)
        u.requires_grad = False
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * u).sum()
        loss.backward()
        """), "u", 2, ("switched off at line 2",), torch_flags={"requires_grad": False}),
    Case("not_reachable_other_graph", "not_reachable", src("""
        a = torch.tensor(1.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        c = b * 3
        loss = a * 2
        loss.backward()
        """), "b", 5, ("starts from `loss`", "not computed from `b`"), (("backward", 5),),
         torch_flags={"requires_grad": True, "is_leaf": True}),
    Case("not_reachable_unused", "not_reachable", src("""
        a = torch.tensor(1.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        loss = a * 2
        loss.backward()
        """), "b", 4, ("no operation that records a graph ever used it",),
         torch_flags={"requires_grad": True, "is_leaf": True}),
    Case("excluded_by_inputs", "excluded_by_inputs", src("""
        a = torch.tensor(1.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        loss = a * b
        loss.backward(inputs=[a])
        """), "b", 4, ("inputs=[`a`]", "does not list `b`"), (("backward", 4),),
         torch_flags={"requires_grad": True}),
    Case("no_backward", "no_backward", src("""
        x = torch.tensor([1.0], requires_grad=True)
        y = (x * 2).sum()
        n = torch.zeros(1)
        """), "x", None, ("no backward ran",), torch_flags={"requires_grad": True}),
    Case("no_backward_error_first", "no_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.sum()
        z = y + undefined_name
        y.backward()
        """), "x", 3, ("stopped with `name` at line 3",)),
    Case("backward_failed", "backward_failed", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.backward()
        """), "x", 3, ("failed with `non_scalar_backward`",), (("failed", 3),),
         torch_flags={"requires_grad": True}),
    Case("backward_failed_second", "backward_failed", src("""
        x = torch.tensor(2.0, requires_grad=True)
        y = x * x
        y.backward()
        x.grad = None
        y.backward()
        """), "x", 5, ("failed with `second_backward`",)),
    Case("autograd_grad", "autograd_grad", src("""
        x = torch.tensor(2.0, requires_grad=True)
        y = x ** 2
        g = torch.autograd.grad(y, x)[0]
        """), "x", 3, ("torch.autograd.grad", "never writes .grad"), (("autograd.grad", 3),),
         torch_flags={"requires_grad": True, "is_leaf": True}),
    Case("grad_reset", "grad_reset", src("""
        p = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (p * p).sum()
        loss.backward()
        p.grad = None
        """), "p", 4, ("backward at line 3", "set back to None", "line 4"), (("backward", 3), ("reset", 4))),
    Case("grad_zeroed", "grad_zeroed", src("""
        m = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (m * 2).sum()
        loss.backward()
        m.grad.zero_()
        """), "m", 4, ("changed in place at line 4",), (("zeroed", 4),), grad="zeros"),
    Case("grad_zeroed_through_data", "grad_zeroed", src("""
        m = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (m * 2).sum()
        loss.backward()
        m.grad.data.zero_()
        """), "m", 4, ("changed in place through .data at line 4",), (("zeroed", 4),), grad="zeros"),
    Case("grad_zeroed_item_assignment", "grad_zeroed", src("""
        m = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (m * 2).sum()
        loss.backward()
        m.grad[1] = 0.0
        m.grad[0] = 0.0
        """), "m", 5, ("changed in place at line 5",), (("zeroed", 5),), grad="zeros"),
    Case("grad_assigned", "grad_assigned", src("""
        s = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (s * 2).sum()
        loss.backward()
        s.grad = torch.zeros(2)
        """), "s", 4, ("assigned it a tensor of zeros made at line 4",), grad="zeros"),
    Case("zero_gradient_relu", "zero_gradient", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = torch.relu(x - 5)
        loss = h.sum()
        loss.backward()
        """), "x", 2, ("ReluBackward0", "<= 0 at every element"), (("zeroed by", 2),), grad="zeros"),
    Case("zero_gradient_then_update", "zero_gradient", src("""
        w = torch.tensor([-1.0, -2.0], requires_grad=True)
        loss = torch.relu(w).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        """), "w", 2, ("ReluBackward0",), grad="zeros"),
    Case("zero_gradient_sign", "zero_gradient", src("""
        x = torch.tensor([1.0, -2.0], requires_grad=True)
        s = torch.sign(x)
        loss = (s * 3).sum()
        loss.backward()
        """), "x", 2, ("SignBackward0", "derivative 0 everywhere"), grad="zeros"),
    Case("zero_gradient_cancel", "zero_gradient", src("""
        z = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (z * 3 - z * 3).sum()
        loss.backward()
        """), "z", 2, ("cancel out",), grad="zeros"),
    Case("unused_parameter_module_never_called", "unused_parameter", src("""
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 1)
                self.spare = nn.Linear(2, 1)
            def forward(self, x):
                return self.fc(x)
        model = Net()
        loss = model(torch.ones(3, 2)).sum()
        loss.backward()
        """), "model.spare.weight", 11, ("parameter of `model.spare`", "never called"), (("backward", 11),),
        torch_flags={"requires_grad": True, "is_leaf": True}),
    Case("frozen_module_parameter", "requires_grad_disabled", src("""
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
        model[0].requires_grad_(False)
        loss = model(torch.ones(3, 2)).sum()
        loss.backward()
        """), "model.0.bias", 3, ("is frozen", "requires_grad_(False)"), (("switched off", 3),),
        torch_flags={"requires_grad": False}),
    Case("grad_reset_by_zero_grad", "grad_reset", src("""
        import torch.nn as nn
        model = nn.Linear(2, 1)
        loss = model(torch.ones(3, 2)).sum()
        loss.backward()
        model.zero_grad()
        """), "model.weight", 5, ("`model.zero_grad()` at line 5", "set_to_none=True"), (("backward", 4),)),
    Case("zero_gradient_root", "zero_gradient", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.backward(gradient=torch.zeros(2))
        """), "x", 3, ("gradient passed to the backward at line 3", "is all zeros"), grad="zeros"),
    # .grad holds NaN or inf (issue 23, must-have 5): the first backward node that made one, and why
    Case("nonfinite_sqrt_at_zero", "nonfinite_gradient", src("""
        x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
        y = torch.sqrt(x)
        z = (y * 0).sum()
        z.backward()
        """), "x", 2, ("SqrtBackward0", "its input was 0", "0 × inf is NaN"), (("made NaN", 2),), grad="NaN"),
    Case("nonfinite_masked_where", "nonfinite_gradient", src("""
        x = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
        safe = x > 2
        y = torch.where(safe, torch.log2(x), 2 * x)
        y.sum().backward()
        """), "x", 3, ("Log2Backward0", "its input was 0", "torch.where at line 3", "unselected branch"),
         (("made NaN", 3), ("masked", 3)), grad="NaN"),
    Case("nonfinite_divide_by_zero", "nonfinite_gradient", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = torch.tensor([0.0, 1.0], requires_grad=True)
        q = x / y
        q.sum().backward()
        """), "x", 3, ("DivBackward0", "the divisor was 0"), (("made inf", 3),), grad="inf"),
    Case("nonfinite_forward_values", "nonfinite_gradient", src("""
        x = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
        b = torch.log(x * 2)
        c = b - b
        d = c.exp().sum()
        d.backward()
        """), "x", 4, ("ExpBackward0", "not finite already", "first inf", "log", "line 2"),
         (("made NaN", 4), ("first inf", 2)), grad="NaN"),
]


def test_every_kind_has_a_case():
    assert {c.kind for c in CASES} == set(KINDS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_note(case: Case):
    result = gradcli_run(case.source, **case.options)
    note = explain_name(result, case.name, result.options)
    assert note is not None
    assert note.kind == case.kind, note.message
    assert note.line == case.line, note.message
    assert note.grad == case.grad
    for fact in case.facts:
        assert fact in note.message + " " + note.hint, (fact, note.message)
    have = {(r["role"], r["line"]) for r in note.related}
    for rel in case.related:
        assert rel in have, (rel, note.related)
    assert note.hint


@pytest.mark.torch
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_pytorch_shows_the_explained_state(case: Case):
    doc = torch_doc(case.source, **case.options)
    t = torch_tensor(doc, case.name)
    if case.grad == "None":
        assert t["grad"] is None
    elif case.grad in ("NaN", "inf"):
        assert t["grad"] is not None and _holds(t["grad"], case.grad.lower())
    else:
        assert t["grad"] is not None and all_zero(t["grad"])
    for flag, value in case.torch_flags.items():
        assert t[flag] == value, (flag, t)
    result = gradcli_run(case.source, **case.options)
    assert (result.error is None) == (doc["error"] is None)
    if doc["error"] is not None:
        assert (result.error.kind, result.error.line) == (doc["error"]["kind"], doc["error"]["line"])


def _holds(values: Any, what: str) -> bool:
    """A gradcli.run/1 value list holds ``"nan"`` (or ``"inf"`` / ``"-inf"``)."""
    stack = [values]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str) and v.lstrip("-") == what:
            return True
    return False


@pytest.mark.torch
@pytest.mark.parametrize("case", [c for c in CASES if c.grad == "NaN"], ids=lambda c: c.id)
def test_nan_note_names_the_node_pytorch_anomaly_mode_stops_at(case: Case):
    """The node a NaN note blames is the one PyTorch's anomaly mode raises at ("Function 'X' returned nan
    values"): the same file with set_detect_anomaly(True) put on its first line (the lines stay)."""
    anomalous = "torch.autograd.set_detect_anomaly(True); " + case.source
    doc = torch_doc(anomalous)
    assert doc["error"] is not None and "returned nan values" in doc["error"]["message"], doc["error"]
    node = doc["error"]["message"].split("'")[1]
    result = gradcli_run(case.source)
    note = explain_name(result, case.name, result.options)
    assert f"came from {node} " in note.message, (node, note.message)
    mine = gradcli_run(anomalous)
    assert mine.error is not None and f"Function '{node}' returned nan values" in mine.error.message


#: real snippets (tests/conformance/real_snippets, recorded from PyTorch 2.13) whose .grad holds NaN
NAN_SNIPPETS = {
    "gh_issues__issue_108618_where_log2_nan": ("x1", ("Log2Backward0", "its input was 0", "torch.where at line 8")),
    "gh_issues__issue_68425_where_exp_overflow": ("a", ("ExpBackward0", "overflowed to inf", "torch.where at line 4")),
    "qa_semantics__forum_mse_sqrt_nan_94875": ("x", ("SqrtBackward0", "its input was 0", "MseLossBackward0")),
}


@pytest.mark.torch
@pytest.mark.parametrize("snippet", sorted(NAN_SNIPPETS))
def test_nan_note_on_real_snippets(snippet):
    """On real code: the note's facts, PyTorch's .grad really holds NaN, and the node PyTorch's anomaly mode
    stops at ("Function 'X' returned nan values") is the one the note says made the NaN."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets" / f"{snippet}.py"
    source = path.read_text()
    name, facts = NAN_SNIPPETS[snippet]
    result = gradcli_run(source)
    note = explain_name(result, name, result.options)
    assert note is not None and note.kind == "nonfinite_gradient" and note.grad == "NaN"
    for fact in facts:
        assert fact in note.message, (fact, note.message)
    doc = torch_doc(source)
    assert _holds(torch_tensor(doc, name)["grad"], "nan")
    lines = source.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("#"))
    assert lines[first] == "import torch"  # anomaly mode on from the first line, the lines unchanged
    lines[first] += "; torch.autograd.set_detect_anomaly(True)"
    anomalous = "\n".join(lines) + "\n"
    adoc = torch_doc(anomalous)
    assert adoc["error"] is not None and "returned nan values" in adoc["error"]["message"], adoc["error"]
    node = adoc["error"]["message"].split("'")[1]
    assert f"{node} at line" in note.message, (node, note.message)


def test_no_note_for_a_real_gradient():
    result = gradcli_run(CASES[0].source)
    assert explain_name(result, "x", result.options) is None
    notes = explain_all(result, result.options)
    assert set(notes) == {"y", "z"}


def test_unknown_name_raises_keyerror():
    result = gradcli_run(CASES[0].source)
    with pytest.raises(KeyError):
        explain_name(result, "nope")


def test_zero_gradient_without_options_is_generic():
    case = next(c for c in CASES if c.id == "zero_gradient_relu")
    result = gradcli_run(case.source)
    note = Explainer(result, None).explain(dict(result.tensors)["x"], "x")
    assert note.kind == "zero_gradient" and note.line is None


def test_provenance_is_not_recorded_on_the_graph_recording_path():
    """The hot path stays as it was: an op that records a node stores no provenance on its result."""
    result = gradcli_run(src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        c = torch.ones(2) * 2
        with torch.no_grad():
            n = x * 2
        """))
    t = dict(result.tensors)
    assert not hasattr(t["y"], "_origin") and not hasattr(t["y"], "_nograd")
    assert t["c"]._origin == (3, 0)
    assert t["n"]._nograd == (5, 4)
