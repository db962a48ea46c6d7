"""``gradcli lint`` (issue 7, must-have 3): each finding kind with its exact line and certainty, and its
agreement with what ``run`` then does -- and with what PyTorch does with the same file; "may" where the
file's behaviour depends on values (both outcomes shown); the table of saved tensors lint relies on agrees
with the engine; the command's exit status and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest
from conftest import gradcli_run, src, torch_doc, torch_tensor

from gradcli.app.lint import KINDS, SAVES, lint_source


@dataclass
class Case:
    id: str
    kind: str
    source: str
    line: int
    facts: tuple = ()


CASES = [
    Case("second_backward", "second_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()
        """), 4, ("line 3 freed", "retain_graph=True")),
    Case("second_backward_shared_history", "second_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()
        a = h.sum()
        b = (h * 2).sum()
        a.backward()
        b.backward()
        """), 6, ("exp made at line 2", "line 5 freed")),
    Case("second_backward_after_autograd_grad", "second_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        g, = torch.autograd.grad(y, x)
        y.backward()
        """), 4, ("line 3 freed", "mul made at line 2")),
    Case("second_backward_after_inputs", "second_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.tensor([3.0, 4.0], requires_grad=True)
        a = x.exp()
        b = w.exp()
        y = (a + b).sum()
        y.backward(inputs=[x])
        y.backward()
        """), 7, ("exp made at line 3", "line 6 freed")),
    Case("leaf_inplace", "leaf_inplace", src("""
        w = torch.ones(3, requires_grad=True)
        w.add_(1)
        """), 2, ("add_()", "`w`", "torch.no_grad()")),
    Case("leaf_inplace_augmented", "leaf_inplace", src("""
        w = torch.ones(3, requires_grad=True)
        w += 1
        """), 2, ("add_()",)),
    Case("leaf_inplace_view", "leaf_inplace", src("""
        w = torch.ones(3, requires_grad=True)
        w[0] = 5.0
        """), 2, ("`w`",)),
    Case("inplace_saved_result", "inplace_saved", src("""
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        s = torch.sigmoid(x)
        s.mul_(2)
        s.sum().backward()
        """), 3, ("mul_()", "`s`", "sigmoid made at line 2", "backward at line 4")),
    Case("inplace_saved_leaf_update", "inplace_saved", src("""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        x = torch.tensor([3.0, 4.0], requires_grad=True)
        y = (w * x).sum()
        with torch.no_grad():
            w -= 0.1
        y.backward()
        """), 5, ("sub_()", "`w`", "backward at line 6")),
    Case("inplace_saved_by_logical_op", "inplace_saved", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        a = torch.tensor([True, False])
        s = x.exp()
        s.logical_or_(a)
        s.sum().backward()
        """), 4, ("logical_or_()", "`s`", "exp made at line 3")),
    Case("inplace_saved_hypot_operand", "inplace_saved", src("""
        a = torch.tensor([3.0, 5.0], requires_grad=True) * 1
        b = torch.tensor([4.0, 12.0])
        h = torch.hypot(a, b)
        a.mul_(2)
        h.sum().backward()
        """), 4, ("mul_()", "`a`", "hypot made at line 3")),
    Case("non_scalar_backward", "non_scalar_backward", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.backward()
        """), 3, ("shape [2]", "gradient=")),
    Case("non_scalar_backward_grad", "non_scalar_backward", src("""
        x = torch.ones(2, 3, requires_grad=True)
        y = x.sum(dim=0)
        g = torch.autograd.grad(y, x)
        """), 3, ("shape [3]",)),
    Case("non_leaf_grad", "non_leaf_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y.sum()
        z.backward()
        print(y.grad)
        """), 5, ("`y` is not a leaf", "retain_grad()")),
    Case("grad_accumulates", "grad_accumulates", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        for i in range(3):
            loss = (x * x).sum()
            loss.backward()
        """), 4, ("3 iterations", "`x.grad`")),
    Case("non_leaf_requires_grad", "non_leaf_requires_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.requires_grad_(False)
        """), 3, ("`y` is not a leaf", "detach()")),
    Case("non_leaf_requires_grad_attribute", "non_leaf_requires_grad", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.requires_grad = False
        """), 3),
    Case("data_use", "data_use", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        x.data.mul_(10)
        y.backward()
        """), 3, (".data", "version-checked")),
    Case("unknown_name", "unknown_name", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.summ()
        """), 2, ("`Tensor.summ` is neither in gradcli nor in PyTorch 2.13", "Did you mean `Tensor.sum`?")),
    Case("requires_grad_on_result", "requires_grad_on_result", src("""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            loss = (w * w).sum()
        loss.requires_grad = True
        loss.backward()
        """), 4, ("under torch.no_grad() (line 3)", "new leaf", "no gradient reaches")),
    Case("requires_grad_on_detached", "requires_grad_on_result", src("""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        h = w.detach() * 3
        loss = h.sum()
        loss.requires_grad_()
        loss.backward()
        """), 4, ("through detach() (line 2)",)),
    Case("attribute_typo", "attribute_typo", src("""
        x = torch.tensor([1.0, 2.0])
        x.require_grad = True
        """), 2, ("not `requires_grad`", "x.requires_grad = True")),
    Case("attribute_typo_read_only", "attribute_typo", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.retains_grad = True
        """), 2, ("read-only", "x.retain_grad()")),
    Case("zero_grad_missing", "zero_grad_missing", src("""
        import torch.nn as nn
        torch.manual_seed(0)
        model = nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.ones(4, 2)
        for step in range(3):
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
        """), 9, ("`opt.step()`", "sum of all the iterations", "opt.zero_grad()")),
    Case("eval_keeps_grad", "eval_keeps_grad", src("""
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(3, 2), nn.Dropout(0.5))
        model.eval()
        x = torch.ones(1, 3)
        y = model(x)
        with torch.no_grad():
            z = model(x)
        """), 5, ("`model.eval()` (line 3)", "does not turn gradient recording off", "torch.no_grad()")),
    Case("retain_graph_unused", "retain_graph_unused", src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        z = x.exp().sum()
        z.backward(retain_graph=True)
        z.backward()
        """), 3, ("retain_graph=True", "no later backward", "Drop retain_graph=True")),
]

#: kinds whose finding is not an error or warning of the run (their own agreement tests below)
_NO_ERROR = ("grad_accumulates", "data_use", "requires_grad_on_result", "zero_grad_missing", "eval_keeps_grad",
             "retain_graph_unused")
_NO_ERROR_IDS = ("attribute_typo",)


def test_every_kind_has_a_case():
    assert {c.kind for c in CASES} == set(KINDS)


def only(case: Case):
    found = lint_source(case.source, "case.py").findings
    mine = [f for f in found if f.kind == case.kind]
    assert len(mine) == 1, found
    return mine[0], found


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_finding(case: Case):
    f, found = only(case)
    assert f.line == case.line and f.certain, f
    for fact in case.facts:
        assert fact in f.message + " " + f.hint, (fact, f.message)
    assert not f.message.startswith("May")
    # nothing else is reported on a file that makes just this mistake (the .data case has no other)
    assert [g.kind for g in found] == [case.kind]


def agreement(result, f) -> None:
    """What run did agrees with the finding's ``expect``."""
    exp = f.expect
    if exp is None:
        return
    if "error" in exp:
        assert result.error is not None and (result.error.kind, result.error.line) == (exp["error"], exp["line"])
    elif "warning" in exp:
        assert (exp["warning"], exp["line"]) in [(w.kind, w.line) for w in result.warnings]


@pytest.mark.parametrize("case", [c for c in CASES if c.kind not in _NO_ERROR and c.id not in _NO_ERROR_IDS],
                         ids=lambda c: c.id)
def test_run_agrees(case: Case):
    f, _ = only(case)
    assert f.expect is not None
    agreement(gradcli_run(case.source), f)


@pytest.mark.torch
@pytest.mark.parametrize("case", [c for c in CASES if c.kind not in _NO_ERROR and c.id not in _NO_ERROR_IDS],
                         ids=lambda c: c.id)
def test_pytorch_agrees(case: Case):
    f, _ = only(case)
    doc = torch_doc(case.source)
    exp = f.expect
    if "error" in exp:
        assert doc["error"] is not None and (doc["error"]["kind"], doc["error"]["line"]) == (exp["error"], exp["line"])
    else:
        assert (exp["warning"], exp["line"]) in [(w["kind"], w["line"]) for w in doc["warnings"]]


def test_grad_accumulates_agrees_with_run():
    case = next(c for c in CASES if c.kind == "grad_accumulates")
    f, _ = only(case)
    assert f.expect == {"accumulates": ["x"], "iterations": 3}
    r = gradcli_run(case.source)
    assert r.ok
    x = dict(r.tensors)["x"]
    # each iteration adds d(sum x^2)/dx = 2x: after 3 iterations .grad is 3 * 2x, not 2x
    np.testing.assert_allclose(x._grad._data, 3 * 2 * np.array([1.0, 2.0]))


@pytest.mark.torch
def test_grad_accumulates_agrees_with_pytorch():
    case = next(c for c in CASES if c.kind == "grad_accumulates")
    assert torch_tensor(torch_doc(case.source), "x")["grad"] == [6.0, 12.0]


def test_zeroed_loop_is_clean_and_runs():
    source = src("""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        for step in range(3):
            loss = (w * w).sum()
            loss.backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
            w.grad = None
        """)
    assert lint_source(source, "case.py").findings == []
    assert gradcli_run(source).ok


def test_data_use_agrees_with_run():
    """.data escapes the version check: the run succeeds and the gradient uses the changed values; the
    same change through detach() is caught (inplace_modified)."""
    case = next(c for c in CASES if c.kind == "data_use")
    f, _ = only(case)
    assert f.expect is None
    r = gradcli_run(case.source)
    assert r.ok
    np.testing.assert_allclose(dict(r.tensors)["x"]._grad._data, [20.0, 40.0])  # 2 * (10 x), not 2 x
    checked = gradcli_run(case.source.replace("x.data.mul_(10)", "x.detach().mul_(10)"))
    assert (checked.error.kind, checked.error.line) == ("inplace_modified", 4)


@pytest.mark.torch
def test_data_use_agrees_with_pytorch():
    case = next(c for c in CASES if c.kind == "data_use")
    assert torch_tensor(torch_doc(case.source), "x")["grad"] == [20.0, 40.0]
    doc = torch_doc(case.source.replace("x.data.mul_(10)", "x.detach().mul_(10)"))
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("inplace_modified", 4)


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "requires_grad_on_result"], ids=lambda c: c.id)
def test_requires_grad_on_result_agrees_with_run(case):
    """The claim: backward runs (no no_grad_fn error), the result is a new leaf, and nothing reaches w."""
    f, _ = only(case)
    assert f.expect == {"leaf": "loss", "cut_line": case.line - 1 if "no_grad" in case.id else 2} or \
        f.expect["leaf"] == "loss"
    r = gradcli_run(case.source)
    assert r.ok, r.error
    t = dict(r.tensors)
    assert t["loss"]._grad_fn is None and t["loss"].requires_grad and t["w"]._grad is None
    without = gradcli_run(case.source.replace("loss.requires_grad = True\n", "").replace("loss.requires_grad_()\n", ""))
    assert (without.error.kind, without.error.line) == ("no_grad_fn", case.line)  # what the line silenced


@pytest.mark.torch
@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "requires_grad_on_result"], ids=lambda c: c.id)
def test_requires_grad_on_result_agrees_with_pytorch(case):
    doc = torch_doc(case.source)
    assert doc["error"] is None
    loss, w = torch_tensor(doc, "loss"), torch_tensor(doc, "w")
    assert loss["is_leaf"] and loss["requires_grad"] and loss["grad_fn"] is None and w["grad"] is None


def test_attribute_typo_agrees_with_run():
    case = next(c for c in CASES if c.id == "attribute_typo")
    f, _ = only(case)
    assert f.expect == {"attribute": "require_grad"}
    r = gradcli_run(case.source)
    assert r.ok and not dict(r.tensors)["x"].requires_grad


@pytest.mark.torch
def test_attribute_typo_agrees_with_pytorch():
    case = next(c for c in CASES if c.id == "attribute_typo")
    doc = torch_doc(case.source)
    assert doc["error"] is None and torch_tensor(doc, "x")["requires_grad"] is False


def _zeroed(source: str) -> str:
    return source.replace("    loss = model(x)", "    opt.zero_grad()\n    loss = model(x)")


def test_zero_grad_missing_agrees_with_run():
    """The claim: the run succeeds, the gradients keep accumulating (after 3 iterations .grad is not the last
    iteration's gradient), so the weights differ from the loop that zeroes them, which lint passes."""
    case = next(c for c in CASES if c.kind == "zero_grad_missing")
    f, _ = only(case)
    assert f.expect == {"optimizer": "opt", "iterations": 3}
    r, z = gradcli_run(case.source), gradcli_run(_zeroed(case.source))
    assert r.ok and z.ok
    assert lint_source(_zeroed(case.source), "case.py").findings == []
    w, wz = dict(r.tensors)["model.weight"], dict(z.tensors)["model.weight"]
    assert not np.allclose(w._data, wz._data)
    assert not np.allclose(w._grad._data, wz._grad._data)


@pytest.mark.torch
def test_zero_grad_missing_agrees_with_pytorch():
    case = next(c for c in CASES if c.kind == "zero_grad_missing")
    for source in (case.source, _zeroed(case.source)):
        doc, mine = torch_doc(source), gradcli_run(source)
        want = torch_tensor(doc, "model.weight")
        got = dict(mine.tensors)["model.weight"]
        np.testing.assert_allclose(got._data, np.array(want["data"], np.float32), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got._grad._data, np.array(want["grad"], np.float32), rtol=1e-5, atol=1e-6)


def test_eval_keeps_grad_agrees_with_run():
    """The claim: after eval() the call still records a graph (y has a grad_fn); under no_grad it does not."""
    case = next(c for c in CASES if c.kind == "eval_keeps_grad")
    f, _ = only(case)
    assert f.expect == {"tensor": "y", "eval_line": 3}
    r = gradcli_run(case.source)
    assert r.ok
    t = dict(r.tensors)
    assert t["y"]._grad_fn is not None and t["y"].requires_grad
    assert t["z"]._grad_fn is None and not t["z"].requires_grad


@pytest.mark.torch
def test_eval_keeps_grad_agrees_with_pytorch():
    case = next(c for c in CASES if c.kind == "eval_keeps_grad")
    doc = torch_doc(case.source)
    assert doc["error"] is None
    y, z = torch_tensor(doc, "y"), torch_tensor(doc, "z")
    assert y["grad_fn"] is not None and y["requires_grad"] and z["grad_fn"] is None and not z["requires_grad"]


def _without_first_retain(source: str) -> str:
    return source.replace("y.backward(retain_graph=True)", "y.backward()")


def test_retain_graph_unused_agrees_with_run():
    """The claim: without that retain_graph=True the file runs the same (no second_backward, same grads);
    the retain_graph=True that a later backward needs (line 5) is not reported."""
    case = next(c for c in CASES if c.kind == "retain_graph_unused")
    f, _ = only(case)
    assert f.expect == {"unused": True}
    r, d = gradcli_run(case.source), gradcli_run(_without_first_retain(case.source))
    assert r.ok and d.ok
    np.testing.assert_array_equal(dict(r.tensors)["x"]._grad._data, dict(d.tensors)["x"]._grad._data)
    assert lint_source(_without_first_retain(case.source), "case.py").findings == []
    needed = gradcli_run(case.source.replace("z.backward(retain_graph=True)", "z.backward()"))
    assert (needed.error.kind, needed.error.line) == ("second_backward", 6)


@pytest.mark.torch
def test_retain_graph_unused_agrees_with_pytorch():
    case = next(c for c in CASES if c.kind == "retain_graph_unused")
    a, b = torch_doc(case.source), torch_doc(_without_first_retain(case.source))
    assert a["error"] is None and b["error"] is None
    assert torch_tensor(a, "x")["grad"] == torch_tensor(b, "x")["grad"]


def test_retain_graph_in_a_loop_says_may():
    source = src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        for i in range(3):
            y = (x * x).sum()
            y.backward(retain_graph=True)
        """)
    found = [f for f in lint_source(source, "case.py").findings if f.kind == "retain_graph_unused"]
    assert [(f.line, f.certain) for f in found] == [(4, False)]


def test_eval_then_frozen_model_says_may():
    source = src("""
        import torch.nn as nn
        model = nn.Linear(3, 2)
        model.requires_grad_(False)
        model.eval()
        y = model(torch.ones(1, 3))
        """)
    found = [f for f in lint_source(source, "case.py").findings if f.kind == "eval_keeps_grad"]
    assert [(f.line, f.certain) for f in found] == [(5, False)]


@pytest.mark.parametrize("switch, certain", [
    ("w.requires_grad = True", True), ("w.requires_grad_()", True), ("w.requires_grad_(True)", True),
    ("model.weight.requires_grad = False", False), ("model.weight.requires_grad_(False)", False),
    ("model.weight.requires_grad = flag", False)])
def test_eval_only_a_switch_that_may_turn_grad_off_makes_it_may(switch, certain):
    """Turning requires_grad on for some other tensor cannot make model(x)'s result stop requiring grad;
    turning it off (or to a value the source does not fix) on a parameter can (PyTorch: a Linear whose
    parameters do not require grad returns a result without grad_fn)."""
    source = src(f"""
        import torch.nn as nn
        flag = False
        w = torch.ones(2)
        model = nn.Linear(3, 2)
        {switch}
        model.eval()
        y = model(torch.ones(1, 3))
        """)
    found = [f for f in lint_source(source, "case.py").findings if f.kind == "eval_keeps_grad"]
    assert [(f.line, f.certain) for f in found] == [(7, certain)]


def test_zero_grad_missing_is_may_in_a_branchy_loop():
    source = src("""
        import torch.nn as nn
        model = nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(n):
            loss = model(torch.ones(1, 2)).sum()
            loss.backward()
            opt.step()
        """)
    found = [f for f in lint_source(source, "case.py").findings if f.kind == "zero_grad_missing"]
    assert [(f.line, f.certain) for f in found] == [(7, False)]


# --- "may" ---------------------------------------------------------------------------------------
MAYBE = src("""
    x = torch.tensor(v, requires_grad=True)
    y = (x * x).sum()
    if x.sum() > 0:
        y.backward()
    y.backward()
    """)


def test_undecidable_second_backward_says_may():
    found = lint_source(MAYBE, "case.py").findings
    assert [(f.kind, f.line, f.certain) for f in found] == [("second_backward", 5, False)]
    assert found[0].message.startswith("May:") and found[0].expect is None


@pytest.mark.parametrize("v, fails", [("[1.0, 2.0]", True), ("[-1.0, -2.0]", False)])
def test_may_is_both_outcomes(v, fails):
    r = gradcli_run(MAYBE, sets=[("v", v)])
    assert (r.error is not None and (r.error.kind, r.error.line) == ("second_backward", 5)) == fails
    assert r.ok != fails


def test_unknown_loop_count_says_may():
    found = lint_source(src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        n = 3
        while n > 0:
            n = n - 1
            loss = (x * 2).sum()
            loss.backward()
        """), "case.py").findings
    assert [(f.kind, f.line, f.certain) for f in found] == [("grad_accumulates", 6, False)]


def test_unknown_op_second_backward_says_may():
    found = lint_source(src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.cosh().sum()
        y.backward()
        y.backward()
        """), "case.py").findings
    assert [(f.kind, f.certain) for f in found] == [("second_backward", True)]  # cosh saves self: certain
    found = lint_source(src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.arctan().sum()
        y.backward()
        y.backward()
        """), "case.py").findings
    # an op gradcli runs but lint's table of saved tensors does not list (erfinv, here before, is now an
    # unsupported PyTorch name that stops lint: issue 19's unknown-API check)
    assert [(f.kind, f.certain) for f in found] == [("second_backward", False)]


GRAD_SHAPE_FIRST = src("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.outer(x, x)
    torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))
    torch.autograd.grad(y, x, grad_outputs=GOUT)
    """)


@pytest.mark.parametrize("gout, finding, error", [
    ("torch.ones_like(x)", [], "grad_shape"),  # the shape check of _make_grads comes before the engine runs
    ("torch.ones_like(y)", [("second_backward", 4, True)], "second_backward"),
])
def test_gradient_shape_mismatch_comes_before_second_backward(gout, finding, error):
    """A recorded Stack Overflow snippet (68778401) made lint claim second_backward where PyTorch raises
    "Mismatch in shape": with a gradient whose shape differs, no freed-graph finding."""
    source = GRAD_SHAPE_FIRST.replace("GOUT", gout)
    found = lint_source(source, "case.py").findings
    assert [(f.kind, f.line, f.certain) for f in found] == finding
    doc = torch_doc(source)
    assert (doc["error"]["kind"], doc["error"]["line"]) == (error, 4)


def test_no_false_alarm_when_nothing_was_saved():
    """(x + 1).sum() saves nothing: PyTorch runs the second backward, and lint says nothing."""
    source = src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        """)
    assert lint_source(source, "case.py").findings == []
    r = gradcli_run(source)
    assert r.ok and dict(r.tensors)["x"]._grad._data.tolist() == [2.0, 2.0]


# files PyTorch runs without the error a naive reading would expect, and lint says nothing about:
# logical_and_ & co are not recorded (no leaf_inplace on a leaf that requires grad); hypot saves an operand
# only when it requires grad (b's change is harmless)
NOT_A_MISTAKE = {
    "logical_inplace_on_a_leaf": src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.logical_and_(torch.tensor([True, False]))
        y = (x * 2).sum()
        y.backward()
        """),
    "hypot_operand_without_grad": src("""
        a = torch.tensor([3.0, 5.0], requires_grad=True)
        b = torch.tensor([4.0, 12.0])
        h = torch.hypot(a, b)
        b.add_(1)
        h.sum().backward()
        """),
}


@pytest.mark.parametrize("name", sorted(NOT_A_MISTAKE))
def test_no_finding_and_run_succeeds(name):
    source = NOT_A_MISTAKE[name]
    assert lint_source(source, "case.py").findings == []
    assert gradcli_run(source).ok


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(NOT_A_MISTAKE))
def test_pytorch_runs_what_lint_passes(name):
    assert torch_doc(NOT_A_MISTAKE[name])["ok"]


NO_GRAD_VIEW = src("""
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with torch.no_grad():
        v = x[:2]
    v.mul_(2)
    """)


def test_view_made_under_no_grad_is_not_leaf_inplace():
    """PyTorch refuses it with a runtime error of its own, which is not a lint finding."""
    assert lint_source(NO_GRAD_VIEW, "case.py").findings == []
    r = gradcli_run(NO_GRAD_VIEW)
    assert (r.error.kind, r.error.line) == ("runtime", 4)


@pytest.mark.torch
def test_pytorch_refuses_the_no_grad_view_change():
    doc = torch_doc(NO_GRAD_VIEW)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("runtime", 4)


FREED_AND_CHANGED = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.sum().backward()
    w = y * y
    y.add_(1)
    w.sum().backward()
    """)


def test_the_error_pytorch_meets_first_is_the_certain_one():
    """The backward at line 6 goes through w's MulBackward0 (saved y, changed at line 5) before y's freed
    MulBackward0: PyTorch's engine runs the node made last first, so the error is inplace_modified."""
    found = {f.kind: f for f in lint_source(FREED_AND_CHANGED, "case.py").findings}
    assert set(found) == {"inplace_saved", "second_backward"}
    assert found["inplace_saved"].certain and found["inplace_saved"].line == 5
    assert not found["second_backward"].certain
    agreement(gradcli_run(FREED_AND_CHANGED), found["inplace_saved"])


@pytest.mark.torch
def test_pytorch_meets_the_inplace_change_first():
    doc = torch_doc(FREED_AND_CHANGED)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("inplace_modified", 6)


# with inputs= PyTorch runs (and frees) only the nodes from which an input is reachable: b's ExpBackward0
# is not on the way to x, and autograd.grad(y, w) does not run a's
NOT_RUN = [src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    a = x.exp()
    b = w.exp()
    y = (a + b).sum()
    y.backward(inputs=[x])
    z = b.sum()
    z.backward()
    """), src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    a = x.exp()
    b = w.exp()
    y = (a * b).sum()
    gw, = torch.autograd.grad(y, w)
    a.sum().backward()
    """)]


@pytest.mark.parametrize("source", NOT_RUN, ids=["inputs", "autograd_grad"])
def test_nodes_a_pruned_backward_does_not_run_stay_usable(source):
    assert lint_source(source, "case.py").findings == []
    assert gradcli_run(source).ok


@pytest.mark.torch
@pytest.mark.parametrize("source", NOT_RUN, ids=["inputs", "autograd_grad"])
def test_pytorch_runs_the_pruned_files(source):
    assert torch_doc(source)["ok"]


def test_retain_graph_and_function_calls():
    source = src("""
        def loss_of(t):
            return (t * t).sum()
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = loss_of(x)
        y.backward(retain_graph=True)
        y.backward()
        y.backward()
        """)
    found = lint_source(source, "case.py").findings
    assert [(f.kind, f.line, f.certain) for f in found] == [("second_backward", 7, True)]
    r = gradcli_run(source)
    assert (r.error.kind, r.error.line) == ("second_backward", 7)


# --- the table of saved tensors agrees with the engine ---------------------------------------------
_PROBES = {
    "exp": "x.exp()", "sigmoid": "x.sigmoid()", "tanh": "x.tanh()", "relu": "x.relu()", "sqrt": "x.sqrt()",
    "log": "x.log()", "sin": "x.sin()", "cos": "x.cos()", "abs": "x.abs()", "pow": "x.pow(2)", "elu": "F.elu(x)",
    "square": "x.square()", "clamp": "x.clamp(0.5, 1.5)", "mul": "x * y", "div": "x / y", "matmul": "x @ y",
    "add": "x + y", "sub": "x - y", "neg": "-x", "sum": "x.sum()", "mean": "x.mean()", "view": "x.view(2)",
    "reshape": "x.reshape(2)", "clone": "x.clone()", "softmax": "x.softmax(0)", "gelu": "F.gelu(x)",
    "log_softmax": "x.log_softmax(0)", "mse_loss": "F.mse_loss(x, y)", "prod": "x.prod()", "var": "x.var()",
    "maximum": "torch.maximum(x, y)", "sign": "x.sign()", "reciprocal": "x.reciprocal()", "max": "x.max()",
    "norm": "x.norm()", "logsumexp": "x.logsumexp(0)", "tan": "x.tan()", "silu": "F.silu(x)",
}


def _saved_kinds(op: str) -> list:
    from gradcli.autograd.graph import SavedTensor

    r = gradcli_run("x = torch.tensor([0.5, 0.25], requires_grad=True)\ny = torch.tensor([0.3, 0.4], "
                    f"requires_grad=True)\nz = {_PROBES[op]}\nk = torch.zeros(1)\n")
    t = dict(r.tensors)
    out = []
    for s in t["z"].grad_fn._saved:
        if isinstance(s, SavedTensor):
            out.append("result" if s._is_output else {id(t["x"]): "x", id(t["y"]): "y"}.get(id(s._tensor), "?"))
        elif s is not None:
            out.append("const")
    return out


@pytest.mark.parametrize("op", sorted(_PROBES))
def test_saves_table_matches_the_engine(op):
    """What lint believes an op saves for backward is exactly what gradcli's engine saves."""
    want = {"none": [], "result": ["result"], "self": ["x"], "inputs": ["x", "y"], "mul": ["x", "y"],
            "div": ["x", "y"], "inputs+result": ["x", "result"]}[SAVES[op]]
    got = _saved_kinds(op)
    if SAVES[op] == "none":
        assert got == [], (op, got)
    else:  # what lint relies on is saved (the engine may keep more, e.g. var's unused result)
        assert set(want) <= set(got) and got[0] == want[0] or sorted(got) == sorted(want), (op, got)


# --- the command ---------------------------------------------------------------------------------------
def test_cli_exit_status_and_text(cli):
    case = next(c for c in CASES if c.id == "inplace_saved_result")
    code, out, _ = cli(case.source, "lint", "{file}")
    assert code == 1
    assert "case.py:3:1  inplace_saved  will fail" in out
    assert "saved case.py:2:5" in out and "backward case.py:4:1" in out
    assert "lint: 1 finding (1 certain, 0 may)" in out
    code, out, _ = cli("x = torch.tensor(1.0, requires_grad=True)\n(x * 2).backward()\n", "lint", "{file}")
    assert code == 0 and "no autograd mistakes found" in out


def test_cli_json(cli):
    code, out, _ = cli(MAYBE, "lint", "{file}", "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["schema"] == "gradcli.lint/1" and doc["ok"] is False and doc["error"] is None
    [f] = doc["findings"]
    assert set(f) == {"kind", "line", "col", "certain", "message", "hint", "expect", "related"}
    assert (f["kind"], f["line"], f["certain"], f["expect"]) == ("second_backward", 5, False, None)


def test_cli_static_error(cli):
    code, out, _ = cli("x = (\n", "lint", "{file}", "--json")
    assert code == 1
    assert json.loads(out)["error"]["kind"] == "syntax"


@pytest.mark.parametrize("line, start", [
    ("y = x.data.norm()", ".data reads the tensor's values outside autograd"),
    ("x.data.mul_(2)", "Changing a tensor through .data"),
    ("x.data -= 1", "Changing a tensor through .data"),
    ("x.data[0] = 3.0", "Changing a tensor through .data"),
    ("x.data = torch.zeros(2)", "Assigning .data"),
])
def test_data_use_says_whether_it_reads_or_changes(line, start):
    [f] = lint_source(f"x = torch.ones(2, requires_grad=True)\n{line}\n", "case.py").findings
    assert f.kind == "data_use" and f.line == 2 and f.certain and f.message.startswith(start), f.message


_VARIABLE_FIX = src("""
    from torch.autograd import Variable
    w = torch.ones(2, requires_grad=True)
    loss = (w * 2).sum()
    loss = Variable(loss, requires_grad=True)
    loss.backward()
    v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    (v * 2).sum().backward()
    """)


def test_variable_of_a_result_is_requires_grad_on_result():
    """``loss = Variable(loss, requires_grad=True)``: certain when the wrapped tensor has a history, "may"
    when it comes from a module (not modelled), nothing for a fresh tensor."""
    found = [(f.kind, f.line, f.certain) for f in lint_source(_VARIABLE_FIX, "case.py").findings]
    assert found == [("requires_grad_on_result", 4, True)]
    module = src("""
        import torch.nn as nn
        from torch.autograd import Variable as V
        model = nn.Linear(2, 1)
        loss = model(torch.ones(1, 2)).sum()
        loss = V(loss, requires_grad=True)
        loss.backward()
        """)
    found = [(f.kind, f.line, f.certain) for f in lint_source(module, "case.py").findings]
    assert found == [("requires_grad_on_result", 5, False)]


@pytest.mark.torch
def test_variable_of_a_result_agrees_with_pytorch():
    """The claim, in PyTorch 2.13: the backward runs, the new leaf gets its gradient, ``w`` none."""
    doc = torch_doc(_VARIABLE_FIX)
    assert doc["error"] is None
    assert torch_tensor(doc, "w")["grad"] is None
    loss = torch_tensor(doc, "loss")
    assert loss["is_leaf"] and loss["grad_fn"] is None and loss["grad"] == 1.0


_LINEAR_SECOND_GRAD = src("""
    x = torch.randn(5).requires_grad_()
    y = (2 * x).sum()
    dydx = torch.autograd.grad(y, x, create_graph=True)[0]
    d2ydx2 = torch.autograd.grad(dydx, x)[0]
    """)


def test_create_graph_gradients_may_not_require_grad():
    """grad(..., create_graph=True) of a linear function is a constant (no grad_fn): what the second
    grad() then meets first, no_grad_fn or a non-scalar output, depends on the function, so "may"
    (pytorch/pytorch issue 36463's code)."""
    found = [(f.kind, f.line, f.certain) for f in lint_source(_LINEAR_SECOND_GRAD, "case.py").findings]
    assert found == [("non_scalar_backward", 4, False)]


@pytest.mark.torch
def test_create_graph_gradient_of_a_linear_function_is_a_constant_in_pytorch():
    doc = torch_doc(_LINEAR_SECOND_GRAD)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("no_grad_fn", 4)
    d = torch_tensor(doc, "dydx")
    assert d["grad_fn"] is None and not d["requires_grad"]
