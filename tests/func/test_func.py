"""torch.func (gradcli/func/): what conformance cases cannot show -- the ``unsupported`` refusals where a
per-sample vmap would differ from PyTorch, state left clean after errors, the module restored by
functional_call, the pytree printing functorch's messages quote (against live PyTorch) -- and values checked
against mathematics."""

from __future__ import annotations

import math

import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file


def run(src: str):
    return run_file(src, "case.py", RunOptions())


@pytest.mark.parametrize("src, words", [
    # PyTorch's output has its batched op's grad_fn (SinBackward0); a stack of samples would not
    ("from torch.func import vmap\nx = torch.ones(2, 3, requires_grad=True)\ny = vmap(torch.sin)(x)\n",
     "an output requires grad outside vmap"),
    # the grad docs' example with weights that require grad: refused, not a different grad_fn
    ("from torch.func import grad, vmap\nw = torch.ones(3, requires_grad=True)\n"
     "g = vmap(grad(lambda w, x: (x.dot(w) ** 2).mean()), in_dims=(None, 0))(w, torch.ones(2, 3))\n",
     "an output requires grad outside vmap"),
    ("from torch.func import vmap\ndef f(a):\n    print(a)\n    return a\ny = vmap(f)(torch.ones(2, 3))\n",
     "printing of a batched tensor"),
    ("from torch.func import vmap\ny = vmap(lambda a: a * torch.randn(3), randomness='different')(torch.ones(2, 3))\n",
     "randomness='different'"),
    ("from torch.func import vmap\ny = vmap(lambda a: torch.tensor(a.tolist()))(torch.ones(2, 3))\n",
     "tolist() of a batched tensor"),
])
def test_what_a_per_sample_vmap_cannot_give_is_unsupported(src, words):
    r = run(src)
    assert r.error is not None and r.error.kind == "unsupported", r.error
    assert words in r.error.message
    assert r.stdout == ""


def test_a_closure_constant_is_not_batched():
    r = run("from torch.func import vmap\nw = torch.tensor(2.0)\nprint(vmap(lambda a: a * w.item())(torch.ones(2)))\n"
            "print(w)\n")
    assert r.error is None, r.error
    assert r.stdout == "tensor([2., 2.])\ntensor(2.)\n"


def test_errors_inside_transforms_leave_no_state():
    from gradcli.autograd import batching
    from gradcli.func import levels

    src = ("from torch.func import grad, vmap\nx = torch.ones(2, 3)\n"
           "try:\n    vmap(lambda a: a.sum().item())(x)\nexcept RuntimeError as e:\n    pass\n"
           "try:\n    grad(lambda a: a)(x)\nexcept RuntimeError as e:\n    pass\n"
           "print(vmap(lambda a: a.sum())(x), grad(lambda a: (a * a).sum())(x[0]))\n")
    r = run(src)
    assert r.error is None, r.error
    assert r.stdout == "tensor([3., 3.]) tensor([2., 2., 2.])\n"
    assert levels.active() == 0 and batching.state.depth == 0 and not batching.state.marks
    assert not batching.state.randomness


def test_functional_call_restores_the_module_even_when_the_call_fails():
    src = ("from torch.func import functional_call\nm = torch.nn.Linear(2, 1)\nws = [m.weight]\n"
           "try:\n    functional_call(m, {'weight': torch.ones(1, 3)}, (torch.ones(1, 2),))\n"
           "except RuntimeError as e:\n    print('failed')\n"
           "print(m.weight is ws[0], isinstance(m.weight, torch.nn.Parameter))\n")
    r = run(src)
    assert r.error is None, r.error
    assert r.stdout == "failed\nTrue True\n"


def test_higher_derivatives_are_the_mathematical_ones():
    # d^k/dx^k sin at 0.7: cos, -sin, -cos, sin (mathematics, not PyTorch)
    src = ("from torch.func import grad\nx = torch.tensor(0.7, dtype=torch.float64)\n"
           "print(grad(torch.sin)(x).item(), grad(grad(torch.sin))(x).item(), grad(grad(grad(torch.sin)))(x).item(),"
           " grad(grad(grad(grad(torch.sin))))(x).item())\n")
    r = run(src)
    assert r.error is None, r.error
    got = [float(v) for v in r.stdout.split()]
    want = [math.cos(0.7), -math.sin(0.7), -math.cos(0.7), math.sin(0.7)]
    assert got == pytest.approx(want, rel=1e-12)


def test_hessian_and_jacfwd_are_the_mathematical_ones():
    # f(a, b) = a^2 b: hessian w.r.t. (a) is 2b; jacfwd of a*b w.r.t. b is diag(a)
    src = ("from torch.func import hessian, jacfwd\na = torch.tensor([1.5, -2.0], dtype=torch.float64)\n"
           "print(hessian(lambda a, b: (a * a * b).sum())(a, a + 1).tolist())\n"
           "print(jacfwd(lambda a, b: a * b, argnums=1)(a, a).tolist())\n")
    r = run(src)
    assert r.error is None, r.error
    import ast

    hess, jac = (ast.literal_eval(line) for line in r.stdout.splitlines())
    assert hess == [[5.0, 0.0], [0.0, -2.0]] and jac == [[1.5, 0.0], [0.0, -2.0]]  # (== ignores zeros' signs)


@pytest.mark.torch
def test_the_structure_printing_is_pytorchs():
    pytest.importorskip("torch")
    from torch.utils._pytree import tree_flatten as torch_flatten
    from torch.utils._pytree import treespec_pprint

    from gradcli.func.pytree import spec_str, tree_flatten, treespec_repr

    for tree in [(1,), (1, 2), [1], {"a": 1, "b": (2, 3)}, 1, ((1,), [2]), (1, 2, 3), ({"w": 1, "b": 2},), (),
                 (None, 1), [[], {}]]:
        leaves, spec = tree_flatten(tree)
        t_leaves, t_spec = torch_flatten(tree)
        assert leaves == t_leaves
        assert treespec_repr(spec) == str(t_spec)
        assert spec_str(spec) == treespec_pprint(t_spec)
