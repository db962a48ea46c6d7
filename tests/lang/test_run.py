"""run_file: the oracle's run semantics (conformance/README.md conventions) and run independence.

Expected values are PyTorch's (checked against torch 2.13 by hand/oracle):
gradients of small polynomials, default dtypes, flags.
"""

from __future__ import annotations

import sys

import pytest
from conftest import needs_engine

from gradcli.lang.result import RunOptions
from gradcli.lang.run import InvocationError, run_file

pytestmark = needs_engine


def data(t):
    return t.detach().tolist()


def named(result):
    return dict(result.tensors)


# --- --set -----------------------------------------------------------------------------------
def test_set_number_is_default_float_tensor(run):
    r = run("y = n * 2\n", sets=[("n", "3")])
    t = named(r)["n"]
    assert t.dtype.name == "float32" and list(t.shape) == [] and data(t) == 3.0
    r = run("y = n * 2\n", sets=[("n", "3")], dtype="float64")
    assert named(r)["n"].dtype.name == "float64"


def test_set_list_and_expression(run):
    r = run("y = a.sum()\n", sets=[("a", "[[1, 2], [3, 4]]"), ("b", "torch.tensor(3)"), ("c", "(1, 2)")])
    assert r.ok, r.error
    t = named(r)
    assert data(t["a"]) == [[1.0, 2.0], [3.0, 4.0]] and t["a"].dtype.name == "float32"
    assert t["b"].dtype.name == "int64"
    assert r.namespace["c"] == (1, 2)
    assert [n for n, _ in r.tensors] == ["a", "b", "y"]  # --set names first, in order


def test_set_bool_is_an_expression(run):
    r = run("print(flag)\n", sets=[("flag", "True")])
    assert r.stdout == "True\n"


def test_set_expression_can_use_random_after_seed(run):
    r1 = run("x = w * 1\n", sets=[("w", "torch.randn(3)")], seed=5)
    r2 = run("x = w * 1\n", sets=[("w", "torch.randn(3)")], seed=5)
    assert data(named(r1)["w"]) == data(named(r2)["w"])


@pytest.mark.parametrize(
    "name, value",
    [("n", "torch.nope(1)"), ("n", "undefined_name"), ("n", "1 +"), ("1x", "3"), ("n", "__import__('os')"),
     ("n", "[1, 'a']"), ("n", "open('f')")],
)
def test_bad_set_is_an_invocation_error(name, value):
    with pytest.raises(InvocationError) as ei:
        run_file("x = 1\n", "f.py", RunOptions(sets=[(name, value)]))
    assert "--set" in str(ei.value)


def test_bad_set_name_is_checked_before_the_file():
    with pytest.raises(InvocationError):
        run_file("x = = 1\n", "f.py", RunOptions(sets=[("not a name", "3")]))
    with pytest.raises(InvocationError):
        run_file("x = 1\n", "f.py", RunOptions(sets=[("__builtins__", "3")]))


def test_set_requires_grad_at_binding(run):
    r = run("y = (w * w).sum()\ny.backward()\n", sets=[("w", "[1.0, 2.0]")], requires_grad=["w"])
    w = named(r)["w"]
    assert w.requires_grad and w.is_leaf and data(w.grad) == [2.0, 4.0]


def test_set_requires_grad_on_int_is_a_file_error(run):
    r = run("y = n + 1\n", sets=[("n", "torch.tensor(3)")], requires_grad=["n"])
    assert r.error.kind == "requires_grad_dtype" and r.error.line is None


def test_file_assignment_replaces_set(run):
    r = run("print(x)\nx = torch.tensor(1.0, requires_grad=True)\ny = x * 4\n", sets=[("x", "5.0")])
    assert r.stdout == "tensor(5.)\n"
    assert data(named(r)["x"].grad) == 4.0


# --- --requires-grad / --retain-grad ---------------------------------------------------------------
def test_requires_grad_after_every_assignment(run):
    src = """\
    x = torch.tensor([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    first = x.grad
    x = torch.tensor([3.0])
    z = (x * 5).sum()
    z.backward()
    """
    r = run(src, requires_grad=["x"])
    t = named(r)
    assert data(t["first"]) == [2.0, 4.0] and data(t["x"].grad) == [5.0]


def test_requires_grad_error_at_the_assignment_line(run):
    r = run("a = 1\nx = torch.tensor([1, 2])\n", requires_grad=["x"])
    assert (r.error.kind, r.error.line) == ("requires_grad_dtype", 2)


def test_requires_grad_tuple_and_augmented_and_def(run):
    src = """\
    def make():
        w = torch.ones(2)
        return w
    a, w = 1, torch.zeros(2)
    print(w.requires_grad)
    v = make()
    print(v.requires_grad)
    """
    r = run(src, requires_grad=["w"])
    assert r.stdout == "True\nTrue\n"


def test_retain_grad_option(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 3\nz = (y * y).sum()\n", retain_grad=["y"])
    y = named(r)["y"]
    assert y.retains_grad and data(y.grad) == [6.0, 12.0]


# --- the default backward --------------------------------------------------------------------------
def test_default_backward_last_tensor(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\na = (x * 10).sum()\nb = (x * x).sum()\nprint(a)\n")
    assert data(named(r)["x"].grad) == [2.0, 4.0]


def test_default_backward_skipped_if_file_calls_backward(run):
    src = """\
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    w = torch.tensor(1.0, requires_grad=True)
    loss = (w * 5) ** 2
    """
    r = run(src)
    t = named(r)
    assert data(t["x"].grad) == [3.0, 3.0] and t["w"].grad is None


def test_default_backward_skipped_when_target_does_not_require_grad(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ns = (x * 2).sum()\nc = torch.ones(2)\n")
    assert r.ok and named(r)["x"].grad is None


def test_default_backward_non_scalar_has_no_line(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n")
    assert (r.error.kind, r.error.line, r.error.col) == ("non_scalar_backward", None, None)


def test_default_backward_gradient_ones(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n", gradient="ones")
    assert r.ok and data(named(r)["x"].grad) == [2.0, 2.0]


def test_default_backward_ignores_def_assignments(run):
    src = """\
    x = torch.tensor(2.0, requires_grad=True)
    a = x * 3
    def f(t):
        inner = t * 100
        return inner
    print(f(x))
    """
    r = run(src)
    assert data(named(r)["x"].grad) == 3.0


def test_no_grad_option_wraps_body_only(run):
    src = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * 2).sum()\nprint(y.requires_grad, torch.is_grad_enabled())\n"
    r = run(src, no_grad=True)
    assert r.ok and r.stdout == "False False\n"
    assert named(r)["x"].grad is None  # target does not require grad: no default backward
    r = run("x = torch.tensor(1.0, requires_grad=True)\nprint(torch.is_grad_enabled())\n", no_grad=True,
            backward="x")
    assert r.ok and data(named(r)["x"].grad) == 1.0  # the backward after the file is outside no_grad


# --- --backward and its arguments -------------------------------------------------------------------
def test_backward_option(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * x\n", backward="y", gradient="[1.0, 10.0]")
    assert data(named(r)["x"].grad) == [2.0, 40.0]


def test_backward_runs_even_if_file_has_backward(run):
    src = "x = torch.tensor(1.0, requires_grad=True)\ny = x * 3\ny.backward(retain_graph=True)\n"
    r = run(src, backward="y")
    assert data(named(r)["x"].grad) == 6.0


def test_backward_unknown_name_and_not_a_tensor(run):
    r = run("x = 1\n", backward="nope")
    assert (r.error.kind, r.error.line) == ("name", None)
    r = run("x = 1\n", backward="x")
    assert (r.error.kind, r.error.line) == ("type", None)


def test_backward_target_without_grad(run):
    r = run("x = torch.ones(2)\ny = x.sum()\n", backward="y")
    assert (r.error.kind, r.error.line) == ("no_grad_fn", None)


def test_gradient_number_takes_target_dtype(run):
    r = run("x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)\ny = x * x\n", backward="y",
            gradient="3")
    assert data(named(r)["x"].grad) == 12.0


def test_gradient_expression_in_file_namespace(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\nk = torch.tensor([2.0, 3.0])\ny = x * 1\n",
            backward="y", gradient="k * 2")
    assert data(named(r)["x"].grad) == [4.0, 6.0]


def test_gradient_expression_error_has_no_line(run):
    r = run("x = torch.tensor([1.0], requires_grad=True)\ny = x * 1\n", backward="y", gradient="nope * 2")
    assert (r.error.kind, r.error.line) == ("name", None)


def test_inputs_and_repeat(run):
    src = "a = torch.tensor([1.0, 2.0], requires_grad=True)\nb = torch.tensor([3.0, 4.0], requires_grad=True)\nloss = (a * b).sum()\n"
    r = run(src, backward="loss", inputs=["a"], retain_graph=True, repeat=2)
    t = named(r)
    assert data(t["a"].grad) == [6.0, 8.0] and t["b"].grad is None
    r = run(src, backward="loss", inputs=["zzz"])
    assert (r.error.kind, r.error.line) == ("name", None)


def test_repeat_without_retain_graph(run):
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\nloss = (x.sin() * 2).sum()\n", repeat=2)
    assert (r.error.kind, r.error.line) == ("second_backward", None)
    assert named(r)["x"].grad is not None  # the first backward's grads stay


def test_error_in_hook_during_after_backward_has_hook_line(run):
    src = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\ny.register_hook(lambda g: g + nope)\nloss = y.sum()\n"
    r = run(src)
    assert (r.error.kind, r.error.line, r.error.col) == ("name", 3, 30)


def test_create_graph_option(run):
    r = run("x = torch.tensor(3.0, requires_grad=True)\ny = x ** 3\n", backward="y", create_graph=True)
    x = named(r)["x"]
    assert data(x.grad) == 27.0 and x.grad.requires_grad


# --- results ------------------------------------------------------------------------------------------
def test_tensors_in_order_of_first_binding(run):
    r = run("b = torch.ones(1)\na = torch.ones(1)\nb = torch.zeros(1)\nn = 3\nfor t in [torch.ones(2)]:\n    pass\n")
    assert [n for n, _ in r.tensors] == ["b", "a", "t"]


def test_tensors_at_error_time(run):
    r = run("a = torch.ones(1)\nz = a[5]\nb = torch.ones(1)\n")
    assert r.error.kind == "index" and [n for n, _ in r.tensors] == ["a"]


def test_prelude_names_are_not_listed(run):
    r = run("F = torch.ones(1)\nx = torch.ones(1)\n")
    assert [n for n, _ in r.tensors] == ["x"]


def test_bytes_source_and_empty_file(run):
    r = run_file(b"x = torch.ones(2)\n", "f.py", RunOptions())
    assert r.ok and [n for n, _ in r.tensors] == ["x"]
    r = run_file(b"", "f.py", RunOptions())
    assert r.ok and r.tensors == [] and r.stdout == ""


def test_source_line_in_error(run):
    r = run("x = 1\ny = x +  undefined\n")
    assert r.error.source_line == "y = x +  undefined"


# --- warnings ---------------------------------------------------------------------------------------------
def test_warning_once_per_kind_and_line(run):
    src = """\
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    def peek(t):
        return t.grad
    for i in range(3):
        g = y.grad
        p = peek(y)
    print(g, p, y.grad)
    s = (y * y).sum()
    """
    r = run(src)
    assert sorted((w.kind, w.line) for w in r.warnings) == [("non_leaf_grad", 4), ("non_leaf_grad", 6),
                                                              ("non_leaf_grad", 8)]
    assert r.warnings[0].source_line is not None


def test_reading_grad_after_the_run_records_nothing(run):
    r = run("x = torch.tensor([1.0], requires_grad=True)\ny = x * 2\n", backward="y", gradient="ones")
    before = len(r.warnings)
    _ = named(r)["y"].grad
    assert len(r.warnings) == before == 0


# --- independence of runs ---------------------------------------------------------------------------------
def test_runs_are_independent(run):
    r = run("torch.set_default_dtype(torch.float64)\nwith torch.no_grad():\n    z = undefined\n")
    assert r.error.kind == "name"
    r = run("x = torch.ones(1)\nprint(torch.is_grad_enabled(), torch.get_default_dtype())\n")
    assert r.stdout == "True torch.float32\n"


def test_seed_default_makes_runs_repeatable(run):
    a = run("x = torch.randn(3)\n")
    b = run("x = torch.randn(3)\n")
    c = run("x = torch.randn(3)\n", seed=1)
    assert data(named(a)["x"]) == data(named(b)["x"]) != data(named(c)["x"])


def test_recursion_limit_restored(run):
    before = sys.getrecursionlimit()
    run("def f(n):\n    return 0 if n == 0 else f(n - 1)\nf(150)\n")
    assert sys.getrecursionlimit() == before


def test_warning_sink_restored(run):
    from gradcli import errors

    before = errors.set_warning_sink(None)
    errors.set_warning_sink(before)
    run("x = 1\n")
    now = errors.set_warning_sink(before)
    assert now is before


def test_position_reset_after_run(run):
    from gradcli.lang.interpreter import position

    run("x = 1\ny = 2\n")
    assert position.loc is None
