"""The check service (gradcli check, issue 6): the file is the function.

Expected gradients come from calculus, written out in each test (never from
gradcli itself): the analytic gradient must equal the formula, the numerical
one must agree with it, and a wrong rule must be caught and named.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from gradcli.app import check as ck
from gradcli.app.problems import UsageProblem
from gradcli.lang.result import RunOptions
from gradcli.status import ExitStatus

ROOT = Path(__file__).resolve().parents[2]


def check(src: str, *, per_node: bool = False, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
          **options):
    return ck.check_source(src, "f.py", RunOptions(**options),
                           ck.CheckSettings(eps=eps, atol=atol, rtol=rtol, per_node=per_node))


def by_name(report) -> dict:
    return {i.name: i for i in report.inputs}


@pytest.fixture(scope="module")
def schema():
    doc = json.loads(resources.files("gradcli").joinpath("schemas/check.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator(doc)


SQUARE = """
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * {rule}
"""


# --- correct gradients pass, with the values of calculus ------------------------------------------------
def test_cubic_sum_gradient_is_three_x_squared():
    r = check("x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nz = (x ** 3).sum()\n")
    assert r.ok and r.target == "z" and r.target_line is None  # the default backward after the file
    (x,) = r.inputs
    assert (x.name, x.shape, x.dtype, x.ok) == ("x", [3], "float64", True)
    assert np.allclose(x.analytic, [3.0, 12.0, 27.0], rtol=0, atol=1e-12)
    assert np.allclose(x.numeric, [3.0, 12.0, 27.0], rtol=0, atol=1e-6)
    assert x.max_abs_error < 1e-6 and x.max_rel_error < 1e-7
    assert ck.exit_status(r) is ExitStatus.SUCCESS


def test_matrix_inputs_tanh_layer():
    src = ("W = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)\n"
           "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
           "y = torch.tanh(W @ x).sum()\n")
    r = check(src)
    W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    x = np.array([1.0, 2.0, 3.0])
    s = 1 - np.tanh(W @ x) ** 2  # d tanh(u)/du
    got = by_name(r)
    assert r.ok and list(got) == ["W", "x"]  # in the order they started requiring grad
    assert np.allclose(got["W"].analytic, np.outer(s, x), atol=1e-12)
    assert np.allclose(got["x"].analytic, W.T @ s, atol=1e-12)
    assert np.allclose(got["W"].numeric, np.outer(s, x), atol=1e-6)


def test_backward_name_with_gradient_weights_the_target():
    # f = sum(v * x^2) with v = [1, 2, 3]: df/dx = 2 x v
    r = check("x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)\ny = x * x\nn = 3\n",
              backward="y", gradient="[1.0, 2.0, 3.0]")
    assert r.ok and r.target == "y"
    assert np.allclose(r.inputs[0].analytic, [2.0, -8.0, 3.0])
    assert np.allclose(r.inputs[0].numeric, [2.0, -8.0, 3.0], atol=1e-6)


def test_set_with_requires_grad_is_an_input():
    r = check("y = a ** 2 * 3\n", sets=[("a", "2.0")], requires_grad=["a"])
    (a,) = r.inputs
    assert a.name == "a" and a.ok and math.isclose(float(a.analytic), 12.0) and abs(float(a.numeric) - 12) < 1e-5


def test_requires_grad_after_creation_and_attribute_form():
    src = ("a = torch.tensor([0.5, 1.5])\na.requires_grad_()\n"
           "b = torch.tensor(2.0)\nb.requires_grad = True\n"
           "z = (a.exp() * b).sum()\n")
    r = check(src)
    got = by_name(r)
    assert r.ok and set(got) == {"a", "b"}
    assert np.allclose(got["a"].analytic, 2 * np.exp([0.5, 1.5]))
    assert np.isclose(float(got["b"].analytic), np.exp(0.5) + np.exp(1.5))


def test_an_unnamed_leaf_the_target_reaches_is_checked_by_its_line():
    r = check("k = 1\ny = (torch.tensor([1.0, 2.0], requires_grad=True) * 3).sum()\n")
    (leaf,) = r.inputs
    assert leaf.name == "<leaf, line 2>" and leaf.ok and np.allclose(leaf.analytic, [3.0, 3.0])


def test_random_leaves_are_the_same_in_every_run():
    r = check("torch.manual_seed(0)\nw = torch.randn(4, requires_grad=True)\nz = (w.sin() * torch.rand(4)).sum()\n")
    assert r.ok and r.inputs[0].max_abs_error < 1e-8


def test_the_files_own_backward_is_the_target_and_only_the_last_call_counts():
    src = ("x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
           "(x * 100).sum().backward()\n"           # an earlier call: its 100s stay in x.grad
           "y = (x ** 2).sum()\n"
           "y.backward()\n")
    r = check(src)
    assert r.ok and r.target == "y" and r.target_line == 4
    assert np.allclose(r.inputs[0].analytic, [2.0, 4.0])  # only what the last backward added
    assert any("2 times" in n for n in r.notes)


def test_backward_inputs_restrict_what_is_checked():
    src = ("a = torch.tensor(1.5, requires_grad=True)\nb = torch.tensor(2.0, requires_grad=True)\n"
           "y = a * b\ny.backward(inputs=[b])\n")
    r = check(src)
    assert [i.name for i in r.inputs] == ["b"] and r.inputs[0].ok
    assert any("a" in n and "inputs" in n for n in r.notes)


# --- a wrong backward is caught, and named by --per-node --------------------------------------------------
def test_wrong_custom_backward_fails_the_whole_file_check():
    r = check(SQUARE.format(rule="x") + "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
                                        "loss = Square.apply(x).sum()\n")
    (x,) = r.inputs
    assert not x.ok and not r.ok and ck.exit_status(r) is ExitStatus.ERROR
    assert np.allclose(x.analytic, [1.0, -2.0, 3.0])  # what the wrong rule gives: x
    assert np.allclose(x.numeric, [2.0, -4.0, 6.0], atol=1e-6)  # the truth: 2 x
    assert math.isclose(x.max_abs_error, 3.0, rel_tol=1e-6) and math.isclose(x.max_rel_error, 0.5, rel_tol=1e-6)
    assert r.nodes is None  # only with --per-node


def test_per_node_names_the_wrong_custom_rule_and_its_line():
    src = SQUARE.format(rule="x") + (
        "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"   # line 12
        "h = torch.sin(x) * 2\n"                                      # line 13
        "y = Square.apply(h)\n"                                       # line 14
        "loss = y.sum()\n")                                           # line 15
    r = check(src, per_node=True)
    rows = [(n.name, n.line, n.tensor, n.status) for n in r.nodes]
    assert rows == [("SinBackward0", 13, None, "ok"), ("MulBackward0", 13, "h", "ok"),
                    ("SquareBackward", 14, "y", "wrong"), ("SumBackward0", 15, "loss", "ok")]
    first = r.first_wrong_node
    assert (first.name, first.line, first.op, first.custom) == ("SquareBackward", 14, "Square.apply", True)
    assert math.isclose(first.max_rel_error, 0.5, rel_tol=1e-6)  # x vs 2 x
    assert not r.ok


def test_per_node_passes_a_correct_custom_function_and_the_whole_check_too():
    r = check(SQUARE.format(rule="2 * x") + "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
                                            "loss = (Square.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum()\n",
              per_node=True)
    assert r.ok and r.first_wrong_node is None
    assert all(n.status == "ok" for n in r.nodes)
    assert np.allclose(r.inputs[0].analytic, [2.0, -8.0, 18.0])


SCALE_BOTH = """
class ScaleBoth(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.k = k
        ctx.save_for_backward(a, b)
        return a * b * k, a + k * b

    @staticmethod
    def backward(ctx, g1, g2):
        a, b = ctx.saved_tensors
        return g1 * b * ctx.k + g2, g1 * a * ctx.k + g2 * {coef}, None

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, -1.0], requires_grad=True)
p, q = ScaleBoth.apply(a, b, 3.0)
loss = (p * q).sum()
"""


@pytest.mark.parametrize("coef, status", [("ctx.k", "ok"), ("1.0", "wrong")])
def test_per_node_with_two_outputs_and_a_non_tensor_argument(coef, status):
    r = check(SCALE_BOTH.format(coef=coef), per_node=True)
    node = next(n for n in r.nodes if n.name == "ScaleBothBackward")
    assert node.status == status and node.custom and node.line == 16
    assert r.ok is (status == "ok")
    assert {n.status for n in r.nodes if n is not node} == {"ok"}


def test_per_node_composite_ops_in_place_and_random():
    src = ("x = torch.tensor([[0.2, -1.0, 0.7], [1.5, 0.3, -0.4]], requires_grad=True)\n"
           "d = torch.nn.functional.cross_entropy(x, torch.tensor([0, 2]))\n"
           "h = x.clone()\n"
           "h[0, 1] = 5.0\n"
           "torch.manual_seed(3)\n"
           "k = (x * torch.rand(2, 3)).sum()\n"
           "loss = d + h.sum() * 0.5 + k + F.mse_loss(x.tanh(), torch.zeros(2, 3))\n")
    r = check(src, per_node=True)
    status = {(n.name, n.line): n for n in r.nodes}
    assert r.ok
    assert status[("LogSoftmaxBackward0", 2)].status == "covered"
    assert "cross_entropy" in status[("LogSoftmaxBackward0", 2)].note
    assert status[("NllLossBackward0", 2)].status == "ok"
    assert status[("CopySlices", 4)].status == "ok"  # x[i] = v: the in-place method's result is its self
    assert status[("MseLossBackward0", 7)].status == "ok"


def test_per_node_on_the_files_own_backward_call():
    r = check(SQUARE.format(rule="x") + "x = torch.tensor([2.0], requires_grad=True)\n"
                                        "y = Square.apply(x).sum()\ny.backward()\nprint(x.grad)\n",
              per_node=True)
    assert r.first_wrong_node.name == "SquareBackward" and r.first_wrong_node.line == 13
    assert r.run.stdout == "tensor([2.])\n"  # the reference run's print output (float64 is the default)


def test_a_hook_that_changes_gradients_fails_the_file_but_no_rule():
    src = ("x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
           "y = x * 3\n"
           "h = y.register_hook(lambda g: g * 2)\n"
           "z = (y ** 2).sum()\n")
    r = check(src, per_node=True)
    assert not r.inputs[0].ok  # autograd says 2 * 2 * 9 x, the function's slope is 18 x
    assert np.allclose(r.inputs[0].numeric, [18.0, 36.0], atol=1e-5)
    assert r.first_wrong_node is None and all(n.status == "ok" for n in r.nodes)


def test_checkpointed_block_gradients_and_nodes_check():
    r = check((ROOT / "samples" / "checkpoint.py").read_text(encoding="utf-8"), per_node=True)
    t = np.tanh([0.5, -1.0, 2.0])
    x = np.array([0.5, -1.0, 2.0])
    d = np.exp(t) * (1 - t ** 2) * x + np.exp(t)  # d/dx [exp(tanh x) * x]
    assert r.ok and r.target == "loss"
    assert np.allclose(r.inputs[0].analytic, 3 * d)  # plain + 2 * ckpt
    assert r.first_wrong_node is None


def test_reentrant_checkpoint_node_is_checked_too():
    src = ("from torch.utils.checkpoint import checkpoint\n"
           "w = torch.tensor([0.5, -1.0], requires_grad=True)\n"
           "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
           "y = checkpoint(lambda t: (t * w).sin(), x, use_reentrant=True)\n"
           "loss = y.sum()\n")
    r = check(src, per_node=True)
    node = next(n for n in r.nodes if n.name == "CheckpointFunctionBackward")
    assert r.ok and node.status == "ok" and node.line == 4
    got = by_name(r)
    assert np.allclose(got["x"].analytic, np.cos([0.5, -2.0]) * [0.5, -1.0])  # d sin(t w)/dt
    assert np.allclose(got["w"].analytic, np.cos([0.5, -2.0]) * [1.0, 2.0])


def test_wrong_backward_sample_is_caught_and_named():
    r = check((ROOT / "samples" / "wrong_backward.py").read_text(encoding="utf-8"), per_node=True)
    assert not r.ok and {i.name for i in r.inputs if not i.ok} == {"x", "w"}
    assert (r.first_wrong_node.name, r.first_wrong_node.line) == ("SquareBackward", 18)


def test_view_and_broadcast_leaves_are_their_own_variables():
    # w views base, e broadcasts a row: each element of w and e is one variable; base is a constant to autograd
    src = ("base = torch.ones(4)\nw = base[1:3]\nw.requires_grad_()\n"
           "e = torch.tensor([1.0, 2.0, 3.0]).expand(2, 3)\ne.requires_grad_()\n"
           "y = (w * w).sum() + (e * e).sum() + base.sum()\n")
    r = check(src, per_node=True)
    got = by_name(r)
    assert r.ok, [(i.name, i.numeric) for i in r.inputs]
    assert np.allclose(got["w"].analytic, [2.0, 2.0]) and np.allclose(got["w"].numeric, [2.0, 2.0], atol=1e-6)
    assert np.allclose(got["e"].numeric, [[2.0, 4.0, 6.0]] * 2, atol=1e-6)


def test_per_node_with_non_contiguous_arguments():
    src = ("x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)\n"
           "w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)\n"
           "y = (x.t() @ w).tanh().sum()\n")
    r = check(src, per_node=True)
    assert r.ok and {n.name for n in r.nodes} >= {"TBackward0", "MmBackward0", "TanhBackward0"}
    assert all(n.status == "ok" for n in r.nodes)


def test_a_big_input_is_sampled(monkeypatch):
    monkeypatch.setattr(ck, "FILE_SAMPLE", 5)
    r = check("x = torch.arange(12.0).reshape(3, 4).requires_grad_()\ny = (x * x).sum()\n")
    (x,) = r.inputs
    assert x.ok and x.note == "sampled 5 of 12 elements" and r.runs == 1 + 2 * 5
    sampled = ~np.isnan(x.numeric.reshape(-1))
    assert list(np.flatnonzero(sampled)) == [0, 2, 5, 8, 11]
    assert np.allclose(x.numeric.reshape(-1)[sampled], 2 * np.array([0.0, 2, 5, 8, 11]), atol=1e-6)
    assert np.allclose(x.analytic, 2 * np.arange(12.0).reshape(3, 4))


# --- where finite differences cannot say ------------------------------------------------------------------
def test_a_branch_on_the_perturbed_value_is_reported():
    src = ("x = torch.tensor(1.0, requires_grad=True)\n"
           "y = x * 2 if x.item() < 1 else x.exp()\n")
    r = check(src)
    (x,) = r.inputs
    assert not x.ok and math.isnan(x.max_abs_error) and "different graph" in x.note


def test_a_jump_with_the_same_graph_shows_as_a_large_error():
    # both branches make a MulBackward0: the graph cannot tell, the size of the error does
    r = check("x = torch.tensor(1.0, requires_grad=True)\ny = x * 2 if x.item() < 1 else x * 3\n")
    assert not r.inputs[0].ok and r.inputs[0].max_abs_error > 1e5


def test_a_float32_leaf_is_flagged():
    r = check("x = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)\ny = (x * x).sum()\n")
    assert "float32" in r.inputs[0].note and r.inputs[0].dtype == "float32"
    assert any("float32" in n for n in r.notes)  # the target too


def test_a_perturbed_run_that_fails_is_reported():
    src = ("x = torch.tensor(2.0, requires_grad=True)\n"
           "assert x.item() <= 2.0\n"
           "y = x * x\n")
    r = check(src)
    assert not r.inputs[0].ok and "failed (assertion at line 2)" in r.inputs[0].note


# --- the file fails, nothing to check, bad options -------------------------------------------------------
def test_a_failing_file_is_reported_with_its_error(schema):
    r = check("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n")  # non-scalar default backward
    assert not r.ok and r.run.error.kind == "non_scalar_backward" and r.inputs == [] and r.target is None
    doc = ck.check_document(r)
    schema.validate(doc)
    assert doc["ok"] is False and doc["error"]["kind"] == "non_scalar_backward"
    assert ck.exit_status(r) is ExitStatus.ERROR
    assert ck.exit_status(r, "non_scalar_backward") is ExitStatus.SUCCESS
    assert ck.exit_status(r, "shape") is ExitStatus.ERROR


def test_nothing_to_differentiate_is_an_invocation_problem():
    with pytest.raises(UsageProblem, match="no backward"):
        check("x = torch.tensor([1.0, 2.0])\ny = x * 2\n")


def test_only_float64():
    with pytest.raises(UsageProblem, match="float64"):
        check("x = torch.tensor(1.0, requires_grad=True)\ny = x * 2\n", dtype="float32")
    r = check("x = torch.tensor(1.0, requires_grad=True)\ny = x * 2\n", dtype="float64")
    assert r.ok


def test_tolerances_decide():
    src = SQUARE.format(rule="x") + "x = torch.tensor([1.0, 2.0], requires_grad=True)\nloss = Square.apply(x).sum()\n"
    assert not check(src).ok
    assert check(src, atol=10.0).ok  # |x - 2x| <= 2 < 10
    assert check(src, atol=0.0, rtol=0.6).ok  # |x - 2x| = 0.5 |2x|


# --- JSON -----------------------------------------------------------------------------------------------
def test_document_validates_and_has_the_spec_fields(schema):
    r = check("x = torch.tensor([1.0, 2.0], requires_grad=True)\nz = (x * x).sum()\n")
    doc = ck.check_document(r)
    schema.validate(doc)
    assert list(doc) == ["schema", "ok", "target", "inputs"]
    assert doc["schema"] == "gradcli.check/1" and doc["ok"] is True and doc["target"] == "z"
    assert [set(i) for i in doc["inputs"]] == [{"name", "max_abs_error", "max_rel_error", "ok"}]


def test_per_node_document_validates(schema):
    r = check(SQUARE.format(rule="x") + "x = torch.tensor([1.0], requires_grad=True)\nl = Square.apply(x).sum()\n",
              per_node=True)
    doc = ck.check_document(r)
    schema.validate(doc)
    assert doc["first_wrong_node"] == {"name": "SquareBackward", "line": 13}
    assert [n["status"] for n in doc["nodes"]] == ["wrong", "ok"]


def test_non_finite_errors_are_strings_in_json(schema):
    r = check("x = torch.tensor(1.0, requires_grad=True)\ny = x * 2 if x.item() < 1 else x.exp()\n")
    doc = ck.check_document(r)
    schema.validate(doc)
    assert doc["inputs"][0]["max_abs_error"] == "nan"


# --- the instrumentation leaves no trace ----------------------------------------------------------------
def test_instrumentation_is_removed_after_every_check():
    from gradcli.autograd import engine, function
    from gradcli.autograd.tensor import Tensor
    from gradcli.ops.registry import REGISTRY

    before = (Tensor.__dict__["_set_requires_grad"], Tensor.__dict__["__mul__"], REGISTRY["exp"].fn,
              function._apply, list(engine.observers))
    check(SQUARE.format(rule="x") + "x = torch.tensor([1.0], requires_grad=True)\nl = Square.apply(x).sum()\n",
          per_node=True)
    with pytest.raises(UsageProblem):
        check("y = 1\n", per_node=True)
    check("x = torch.tensor([1.0], requires_grad=True)\ny = x * 2\n", per_node=True)  # the file fails
    after = (Tensor.__dict__["_set_requires_grad"], Tensor.__dict__["__mul__"], REGISTRY["exp"].fn,
             function._apply, list(engine.observers))
    assert after == before


def test_compare_is_gradchecks_criterion():
    assert ck.compare(np.array([1.0, 2.0]), np.array([1.0, 2.0]), 1e-5, 1e-3) == (0.0, 0.0, True)
    a, r, ok = ck.compare(np.array([1.0, 0.0]), np.array([2.0, 0.0]), 1e-5, 1e-3)
    assert (a, r, ok) == (1.0, 0.5, False)
    assert ck.compare(np.array([1.0]), np.array([1.0005]), 1e-5, 1e-3)[2] is True  # within rtol * |n|
    a, r, ok = ck.compare(np.array([np.nan]), np.array([1.0]), 1e-5, 1e-3)
    assert math.isnan(a) and math.isnan(r) and ok is False


# Every built-in module with parameters initialises them in place (reset_parameters) after making them;
# PyTorch's parameters require grad from creation, so a perturbation made when they started requiring grad
# would be overwritten by the init (issue 23 stop 33: every element of a Conv2d's weight "disagreed").
# Finite differences of the loss must match its analytic gradient for each of their parameters.
_MODULE_FILES = {
    "Linear": ("nn.Linear(3, 2)", "torch.randn(4, 3)", "m(x)"),
    "Conv1d": ("nn.Conv1d(2, 2, 3)", "torch.randn(1, 2, 6)", "m(x)"),
    "Conv2d": ("nn.Conv2d(2, 2, 3)", "torch.randn(1, 2, 5, 5)", "m(x)"),
    "BatchNorm1d": ("nn.BatchNorm1d(3)", "torch.randn(4, 3)", "m(x) * torch.arange(3.0)"),
    "LayerNorm": ("nn.LayerNorm(3)", "torch.randn(4, 3)", "m(x) * torch.arange(3.0)"),
    "Embedding": ("nn.Embedding(5, 3)", "torch.tensor([0, 2, 2, 4])", "m(x)"),
    "Bilinear": ("nn.Bilinear(2, 3, 2)", "torch.randn(4, 2)", "m(x, torch.randn(4, 3))"),
    "RNN": ("nn.RNN(3, 2)", "torch.randn(4, 1, 3)", "m(x)[0]"),
    "LSTM": ("nn.LSTM(3, 2)", "torch.randn(4, 1, 3)", "m(x)[0]"),
    "GRU": ("nn.GRU(3, 2)", "torch.randn(4, 1, 3)", "m(x)[0]"),
    "LSTMCell": ("nn.LSTMCell(3, 2)", "torch.randn(4, 3)", "m(x)[0]"),
    "GRUCell": ("nn.GRUCell(3, 2)", "torch.randn(4, 3)", "m(x)"),
    # parameters materialized and initialised at the first call (then in float64 after .double())
    "LazyLinear": ("nn.LazyLinear(2)", "torch.randn(4, 3)", "m(x)"),
    "LazyLinear.double": ("nn.LazyLinear(2).double()", "torch.randn(4, 3, dtype=torch.float64)", "m(x)"),
}


@pytest.mark.parametrize("name", sorted(_MODULE_FILES))
def test_check_of_a_built_in_modules_parameters_passes(name):
    make, x, out = _MODULE_FILES[name]
    report = check(f"import torch.nn as nn\ntorch.manual_seed(0)\nm = {make}\nx = {x}\n"
                   f"loss = ({out}).pow(2).sum()\nloss.backward()\n")
    assert report.run.ok, report.run.error
    params = [i for i in report.inputs if i.name.startswith("m.")]
    assert params, [i.name for i in report.inputs]
    for i in params:
        assert i.ok and not i.note, (i.name, i.max_abs_error, i.max_rel_error, i.note)


def test_parameters_require_grad_once_the_constructor_returns():
    """What a file can see (PyTorch: a Parameter requires grad from creation): a subclass's __init__ after
    super().__init__() and the module's parameters afterwards; a Parameter the file makes itself requires
    grad at once, inside a built-in's constructor or not."""
    from gradcli.lang.run import run_file

    r = run_file("import torch.nn as nn\n"
                   "class L(nn.Linear):\n"
                   "    def __init__(self):\n"
                   "        super().__init__(2, 2)\n"
                   "        print(self.weight.requires_grad, self.bias.requires_grad)\n"
                   "        self.extra = nn.Parameter(torch.ones(2))\n"
                   "        print(self.extra.requires_grad)\n"
                   "m = L()\n"
                   "print([p.requires_grad for p in m.parameters()], m.weight.is_leaf, m.weight.grad_fn)\n",
                   "f.py", RunOptions())
    assert r.ok, r.error
    assert r.stdout == "True True\nTrue\n[True, True, True] True None\n"
