"""Statement forms whose meaning depends on torch objects (expected values: PyTorch 2.13 semantics).

More of these, recorded from PyTorch by the oracle, are in data/lang_cases/.
"""

from __future__ import annotations

import importlib

import pytest
from conftest import needs_engine

pytestmark = needs_engine


def named(r):
    return dict(r.tensors)


def test_augmented_assignment_is_in_place_on_tensors(run):
    src = """\
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    alias = y
    y += 1
    y -= 0.5
    y *= 2
    y /= 4
    print(y is alias, y.grad_fn.name(), alias)
    """
    r = run(src + "loss = alias.sum()\n")
    assert r.ok, r.error
    assert r.stdout == "True DivBackward0 tensor([0.7500, 1.2500], grad_fn=<DivBackward0>)\n"


def test_augmented_assignment_on_leaf_is_leaf_inplace_error(run):
    r = run("x = torch.tensor([1.0], requires_grad=True)\nx += 1\n")
    assert (r.error.kind, r.error.line) == ("leaf_inplace", 2)


def test_augmented_assignment_on_subscript_and_attribute(run):
    src = """\
    t = torch.zeros(3)
    t[1] += 5
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * 3).sum().backward()
    w.grad += 1
    print(t, w.grad)
    """
    r = run(src)
    assert r.stdout == "tensor([0., 5., 0.]) tensor([4., 4.])\n"


def test_with_binds_enter_value(run):
    r = run("with torch.no_grad() as g:\n    print(g, torch.is_grad_enabled())\nprint(torch.is_grad_enabled())\n")
    assert r.stdout == "None False\nTrue\n"


def test_with_restores_mode_on_error(run):
    r = run("with torch.no_grad():\n    x = undefined\n")
    assert (r.error.kind, r.error.line) == ("name", 2)
    r2 = run("print(torch.is_grad_enabled())\n")
    assert r2.stdout == "True\n"


def test_with_multiple_items(run):
    r = run("with torch.no_grad(), torch.enable_grad():\n    print(torch.is_grad_enabled())\n")
    assert r.stdout == "True\n"


def test_with_on_a_python_value_is_refused(run):
    r = run("with [1]:\n    pass\n")
    assert (r.error.kind, r.error.line) == ("type", 1)


def test_return_inside_with_leaves_the_block(run):
    src = """\
    def f(t):
        with torch.no_grad():
            return t * 2
    x = torch.tensor([1.0], requires_grad=True)
    y = f(x)
    print(y.requires_grad, torch.is_grad_enabled())
    """
    r = run(src)
    assert r.stdout == "False True\n"


def test_decorator_no_grad(run):
    r = run("@torch.no_grad()\ndef f(t):\n    return t * 2\nx = torch.ones(1, requires_grad=True)\nprint(f(x).requires_grad)\n")
    assert r.stdout == "False\n"


def test_user_function_decorator(run):
    src = """\
    def twice(fn):
        return lambda t: fn(fn(t))
    @twice
    def inc(t):
        return t + 1
    print(inc(1))
    """
    assert run(src).stdout == "3\n"


def test_isinstance_with_torch_types(run):
    r = run("x = torch.ones(1)\nprint(isinstance(x, torch.Tensor), isinstance(1.0, torch.Tensor), isinstance(x.shape, tuple))\n")
    assert r.stdout == "True False True\n"


def test_tensor_attribute_assignment_whitelist(run):
    r = run("x = torch.ones(2)\nx.requires_grad = True\nprint(x.requires_grad)\n")
    assert r.stdout == "True\n"
    r = run("x = torch.ones(2)\nx.shape = (1, 2)\n")
    assert (r.error.kind, r.error.line) == ("runtime", 2)
    assert "not writable" in r.error.message
    # any other name is the tensor's own attribute, as PyTorch's Tensor takes any (tests/lang/test_tensor_user_attrs.py)
    r = run("x = torch.ones(2)\nx.foo = 1\nprint(x.foo)\n")
    assert r.error is None and r.stdout == "1\n"


def test_tensor_missing_attribute(run):
    r = run("x = torch.ones(2)\ny = x.definitely_not_an_op()\n")
    assert (r.error.kind, r.error.line, r.error.col) == ("runtime", 2, 4)
    assert r.error.message == "'Tensor' object has no attribute 'definitely_not_an_op'"
    r = run("y = torch.definitely_not_an_op\n")
    assert r.error.message == "module 'torch' has no attribute 'definitely_not_an_op'"


def test_method_on_class(run):
    r = run("x = torch.tensor([1.0, 2.0])\nprint(torch.Tensor.sum(x))\n")
    assert r.stdout == "tensor(3.)\n"


def test_hook_is_a_user_function_called_by_the_engine(run):
    src = """\
    seen = []
    def hook(g):
        seen.append(g.tolist())
        return g * 2
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.register_hook(hook)
    y.sum().backward()
    print(seen, x.grad)
    """
    r = run(src)
    assert r.stdout == "[[1.0, 1.0]] tensor([6., 6.])\n"


def test_hook_warning_line_and_position_restored(run):
    src = """\
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * 1
    def hook(g):
        peek = y.grad
        return g
    z.register_hook(hook)
    z.sum().backward()
    w = z.grad
    """
    r = run(src)
    assert sorted(w.line for w in r.warnings) == [5, 9]


def test_custom_function_class(run):
    src = """\
    class Square(torch.autograd.Function):
        "x ** 2 with a hand-written backward"
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            ctx.k = 2
            return a * a
        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * ctx.k * a
    x = torch.tensor([1.0, 3.0], requires_grad=True)
    y = Square.apply(x).sum()
    """
    if importlib.util.find_spec("gradcli.autograd.function") is None:
        r = run(src)
        assert (r.error.kind, r.error.line, r.error.message) == ("unsupported", 1,
                                                                 "custom autograd.Function arrives later")
        return
    r = run(src)
    assert r.ok, r.error
    assert named(r)["x"].grad.tolist() == [2.0, 6.0]


def test_custom_function_unavailable_is_unsupported(run, monkeypatch):
    import gradcli.lang.interpreter as interp

    monkeypatch.setattr(interp, "_function_class_factory", lambda: None)
    r = run("x = 1\nclass A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        return a\n")
    assert (r.error.kind, r.error.line) == ("unsupported", 2)
    assert r.error.message == "custom autograd.Function arrives later"


def test_from_import_function_base(run):
    src = """\
    from torch.autograd import Function
    class Id(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1
        @staticmethod
        def backward(ctx, g):
            return g
    x = torch.ones(2, requires_grad=True)
    y = Id.apply(x).sum()
    """
    if importlib.util.find_spec("gradcli.autograd.function") is None:
        pytest.skip("engine has no custom Function yet")
    r = run(src)
    assert r.ok, r.error
    assert named(r)["x"].grad.tolist() == [1.0, 1.0]


def test_class_must_derive_from_function_at_run_time(run):
    r = run("Function = 3\nclass A(Function):\n    pass\n")
    assert (r.error.kind, r.error.line) == ("unsupported", 2)


def test_imports_bind_names(run):
    src = """\
    import torch.nn.functional as F
    import torch.utils.checkpoint as cp
    import torch
    from torch.autograd import Function
    print(F is torch.nn.functional, cp is torch.utils.checkpoint, Function is torch.autograd.Function)
    """
    assert run(src).stdout == "True True True\n"


def test_tuple_unpacking_of_tensor_results(run):
    r = run("x = torch.arange(6.0)\na, b = x.split([2, 4])\nprint(a, b.shape)\n")
    assert r.stdout == "tensor([0., 1.]) torch.Size([4])\n"


def test_fstring_with_tensor_item_and_format(run):
    r = run("x = torch.tensor(2.5)\nprint(f'{x.item():.3f} {x:.2f} {x!r}')\n")
    assert r.stdout == "2.500 2.50 tensor(2.5000)\n"


def test_index_error_on_tensor_has_position(run):
    r = run("x = torch.ones(3)\nfor i in range(5):\n    y = x[i]\n")
    assert (r.error.kind, r.error.line, r.error.col) == ("index", 3, 8)


def test_mask_none_ellipsis_indexing(run):
    r = run("m = torch.arange(6.0).reshape(2, 3)\nprint(m[m > 3], m[None].shape, m[..., 1], m[:, 1:3])\n")
    assert r.stdout == (
        "tensor([4., 5.]) torch.Size([1, 2, 3]) tensor([1., 4.]) tensor([[1., 2.],\n        [4., 5.]])\n"
    )


def test_an_instance_attribute_hiding_a_method_leaves_the_class_alone(run):
    """``v.sum = 7`` hides Tensor.sum on v only (PyTorch's instance __dict__): the class's method and other
    tensors' stay, in this run and the next (the full suite once ran test_method_on_class after such a run)."""
    r = run("v = torch.zeros(3)\nv.sum = 7\nx = torch.tensor([1.0, 2.0])\nprint(v.sum, x.sum(), torch.Tensor.sum(x))\n")
    assert r.stdout == "7 tensor(3.) tensor(3.)\n"
    r = run("x = torch.tensor([1.0, 2.0])\nprint(torch.Tensor.sum(x))\n")
    assert r.stdout == "tensor(3.)\n"
