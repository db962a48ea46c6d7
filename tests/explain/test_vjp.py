"""The VJP view (issue 7, must-have 5): for y.backward(gradient=v) on a non-scalar y, J = dy/dx (checked
against the analytic Jacobian and PyTorch's torch.autograd.functional.jacobian), v, and v^T J -- which is
exactly what landed in x.grad; the view leaves the run untouched (hooks run once, stdout unchanged)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import src

from gradcli.app.vjp import MAX_ROWS, recording
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

FILE = src("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([[1.0, 0.5, 0.0], [2.0, -1.0, 1.0]], requires_grad=True)
    y = w @ (x * x)
    y.register_hook(lambda g: print("hook saw", g))
    v = torch.tensor([1.0, -1.0])
    y.backward(gradient=v)
    """)

X = np.array([1.0, 2.0, 3.0])
W = np.array([[1.0, 0.5, 0.0], [2.0, -1.0, 1.0]])
V = np.array([1.0, -1.0])


def views(source: str, **options):
    with recording() as rec:
        result = run_file(source, "case.py", RunOptions(**options))
    return result, rec.name_views(result)


def test_jacobian_vjp_and_what_landed():
    result, [view] = views(FILE)
    assert result.ok and (view.line, view.root, view.root_shape) == (6, "y", (2,))
    np.testing.assert_array_equal(view.v, V)
    by = {i.name: i for i in view.inputs}
    # y_i = sum_j W_ij x_j^2: dy_i/dx_j = 2 W_ij x_j, dy_i/dW_kj = [i == k] x_j^2
    np.testing.assert_allclose(by["x"].jacobian, 2 * W * X)
    np.testing.assert_allclose(by["w"].jacobian, np.kron(np.eye(2), X ** 2))
    np.testing.assert_allclose(by["x"].vjp, V @ (2 * W * X))
    for inp in view.inputs:
        assert inp.matches is True
        np.testing.assert_allclose(inp.landed, inp.vjp)
    np.testing.assert_allclose(dict(result.tensors)["x"]._grad._data, V @ (2 * W * X))


@pytest.mark.torch
def test_jacobian_is_pytorchs():
    torch = pytest.importorskip("torch")
    _, [view] = views(FILE)
    x = torch.tensor(X.tolist())
    w = torch.tensor(W.tolist())
    jx = torch.autograd.functional.jacobian(lambda x: w @ (x * x), x)
    np.testing.assert_allclose(next(i for i in view.inputs if i.name == "x").jacobian, jx.numpy(), rtol=1e-6)


def test_the_view_does_not_disturb_the_run():
    plain = run_file(FILE, "case.py", RunOptions())
    viewed, _ = views(FILE)
    assert viewed.stdout == plain.stdout == "hook saw tensor([ 1., -1.])\n"
    assert [(e["kind"], e["loc"]) for e in viewed.logs["backward"]] == [("backward", (6, 0))]


def test_landed_is_the_increment_when_grad_accumulates():
    source = FILE + "y2 = w @ (x * x)\ny2.backward(gradient=v)\n"
    result, (first, second) = views(source)
    x2 = next(i for i in second.inputs if i.name == "x")
    np.testing.assert_allclose(x2.landed, V @ (2 * W * X))
    np.testing.assert_allclose(dict(result.tensors)["x"]._grad._data, 2 * (V @ (2 * W * X)))
    assert x2.matches


def test_backward_after_the_file_with_gradient_option():
    result, [view] = views("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * x\n", gradient="[1.0, 3.0]")
    assert view.line is None and view.root == "y"
    [inp] = view.inputs
    np.testing.assert_allclose(inp.jacobian, np.diag([2.0, 4.0]))
    np.testing.assert_allclose(inp.vjp, [2.0, 12.0])
    assert inp.matches


def test_large_jacobian_is_not_printed():
    n = MAX_ROWS + 1
    result, [view] = views(f"x = torch.ones({n}, requires_grad=True)\ny = x * 2\ny.backward(gradient=torch.ones({n}))\n")
    assert view.note.startswith("J is not shown") and view.inputs[0].jacobian is None
    assert view.inputs[0].landed is not None


def test_scalar_backward_has_no_view():
    _, vs = views("x = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()\n")
    assert vs == []


def test_cli_explain_vjp(cli):
    code, out, _ = cli(FILE, "run", "{file}", "--explain-vjp")
    assert code == 0
    assert out.startswith("hook saw tensor([ 1., -1.])\n")
    assert "y.backward(gradient=v) at case.py:6" in out
    assert "v = [ 1., -1.]" in out
    assert "J = dy/dx  (2 x 3):" in out and "[[ 2.,  2.,  0.]," in out and " [ 4., -4.,  6.]]" in out
    assert "v^T J            = [-2.,  6., -6.]" in out and "landed in x.grad = [-2.,  6., -6.]" in out
    assert "landed in x.grad = [-2.,  6., -6.]" in out
    assert out.count("v^T J is exactly what landed in .grad") == 2


def test_cli_matrix_results_stay_aligned(cli):
    # y = x * x elementwise: J = diag(2x), so v^T J = 2 * x * v = [[2, 0], [3, 16]] (mathematics)
    code, out, _ = cli("x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\ny = x * x\n"
                       "y.backward(gradient=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))\n", "run", "{file}", "--explain-vjp")
    assert code == 0
    lines = [line[2:-1].rstrip() for line in out.splitlines() if line.startswith("│")]  # inside the panel
    assert lines[lines.index("v = [[1. , 0. ],") + 1] == "     [0.5, 2. ]]"
    assert "J = dy/dx  (4 x 4):" in lines
    at = lines.index("v^T J            = [[ 2.,  0.],")
    assert lines[at + 1:at + 4] == ["                    [ 3., 16.]]", "landed in x.grad = [[ 2.,  0.],",
                                    "                    [ 3., 16.]]"]


def test_cli_accumulated_grad_shows_what_was_already_there(cli):
    # d(10 x).sum()/dx = 10; then y = x * x with v = ones: v^T J = 2 x = [2, 4]; x.grad = 10 + 2x (mathematics)
    code, out, _ = cli("x = torch.tensor([1.0, 2.0], requires_grad=True)\n(x * 10).sum().backward()\ny = x * x\n"
                       "y.backward(gradient=torch.tensor([1.0, 1.0]))\n", "run", "{file}", "--explain-vjp")
    assert code == 0
    assert "landed in x.grad = [2., 4.]" in out
    assert "(added to the [10., 10.] x.grad already held: x.grad is now [12., 14.])" in out
    assert "v^T J is exactly what landed in .grad" in out
