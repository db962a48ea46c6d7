"""Engine tests: values from calculus, error kinds from PyTorch's documented behaviour (SPEC §4)."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

from gradcli.api import make_globals
from gradcli.autograd import grad_mode
from gradcli.errors import GradcliError

torch = make_globals()["torch"]


def kind_of(fn) -> str:
    with pytest.raises(GradcliError) as e:
        fn()
    return e.value.kind


def test_diamond_a_plus_a():
    a = torch.tensor(3.0, requires_grad=True)
    (a + a).backward()
    assert a.grad.item() == 2.0


def test_diamond_product_rule():
    # y = (a + b) * a  ->  dy/da = 2a + b, dy/db = a
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(5.0, requires_grad=True)
    ((a + b) * a).backward()
    assert a.grad.item() == 9.0 and b.grad.item() == 2.0


def test_broadcast_gradient_is_summed_back():
    s = torch.tensor(2.0, requires_grad=True)
    m = torch.ones(2, 3)
    (s * m + s).sum().backward()
    assert s.grad.item() == 12.0  # 6 from s*m, 6 from broadcasting s over 6 elements


def test_one_million_node_chain_runs_iteratively():
    x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    y = x
    n = 1_000_000
    for _ in range(n):
        y = y + 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_no_reference_cycle_per_node():
    gc.collect()
    gc.disable()
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x
        for _ in range(1000):
            y = (y * 1.0001).sin()
        y.sum().backward()
        del y
        assert gc.collect() < 50  # a per-node cycle would leave thousands of objects for the collector
    finally:
        gc.enable()


def test_second_backward_fails_where_saved_tensors_were_freed():
    x = torch.tensor(2.0, requires_grad=True)
    loss = x.exp() * 3
    loss.backward()
    assert kind_of(loss.backward) == "second_backward"
    assert math.isclose(x.grad.item(), 3 * math.exp(2.0), rel_tol=1e-6)


def test_second_backward_through_nodes_without_saved_tensors_is_allowed():
    # AddBackward0 / SumBackward0 save no tensors: PyTorch lets the second backward through
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_retain_graph_accumulates():
    x = torch.tensor(1.5, requires_grad=True)
    y = x * x
    for _ in range(3):
        y.backward(retain_graph=True)
    assert x.grad.item() == 9.0


def test_errors_of_the_gradient_argument():
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 3
    assert kind_of(y.backward) == "non_scalar_backward"
    assert kind_of(lambda: y.backward(torch.ones(4))) == "grad_shape"
    c = torch.ones(2)
    assert kind_of(c.sum().backward) == "no_grad_fn"


def test_autograd_grad_errors_and_no_accumulation():
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = torch.tensor([3.0, 4.0], requires_grad=True)
    c = torch.tensor([1.0, 1.0])
    y = (p * q).sum()
    gp, gq = torch.autograd.grad(y, [p, q], retain_graph=True)
    assert gp.tolist() == [3.0, 4.0] and gq.tolist() == [1.0, 2.0]
    assert p.grad is None
    assert kind_of(lambda: torch.autograd.grad(y, [p, c], retain_graph=True)) == "input_no_grad"
    z = (p * 2).sum()
    assert kind_of(lambda: torch.autograd.grad(z, [p, q], retain_graph=True)) == "unused_input"
    assert torch.autograd.grad(z, [p, q], allow_unused=True)[1] is None


def test_inputs_restricts_accumulation_and_retains_non_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = (y * y).sum()
    z.backward(inputs=[y])
    assert y.grad.tolist() == [6.0, 12.0] and y.retains_grad and x.grad is None


def test_create_graph_second_derivative():
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g, x)
    assert g.item() == 12.0 and h.item() == 12.0


def test_flags_and_requires_grad_errors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    assert kind_of(lambda: y.requires_grad_(False)) == "non_leaf_requires_grad"
    assert kind_of(lambda: torch.arange(3).requires_grad_()) == "requires_grad_dtype"
    assert kind_of(lambda: y.numpy()) == "numpy_requires_grad"
    assert kind_of(lambda: y.item()) == "item_non_scalar"
    with torch.no_grad():
        w = x * 2
    assert kind_of(w.retain_grad) == "retain_grad_no_grad"
    assert kind_of(lambda: x[0:1].detach_()) == "detach_view"


def test_leaf_inplace_and_inplace_modified():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert kind_of(lambda: x.add_(1)) == "leaf_inplace"
    y = x.exp()
    y.mul_(2)
    assert kind_of(y.sum().backward) == "inplace_modified"
    with torch.no_grad():
        x.mul_(10)  # allowed under no_grad
    assert x.tolist() == [10.0, 20.0] and x.is_leaf


def test_setitem_into_plain_tensor_makes_copyslices():
    s = torch.tensor(1.5, requires_grad=True)
    z = torch.zeros(3)
    z[0] = s
    z[2] = s * 2
    assert z.grad_fn.name() == "torch::autograd::CopySlices" and not z.is_leaf  # as PyTorch names it
    (z * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert s.grad.item() == 201.0


def test_hooks_fire_and_replace():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 5
    b.register_hook(lambda g: g * 0)
    c = a * 7
    (b + c).sum().backward()
    assert a.grad.tolist() == [7.0, 7.0]


def test_grad_modes_nest():
    assert torch.is_grad_enabled()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            with torch.set_grad_enabled(False):
                assert not torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    grad_mode.reset()


def test_type_promotion_rules():
    i = torch.tensor([3, -7, 8])
    assert (i * 2.5).dtype is torch.float32
    assert (i / torch.tensor([2, 2, 3])).dtype is torch.float32
    assert (i // 2).dtype is torch.int64
    d0 = torch.tensor(2.0, dtype=torch.float64)
    assert (torch.ones(2) * d0).dtype is torch.float32  # a 0-d tensor does not widen a dimensioned one
    assert (i * d0).dtype is torch.float64  # but lifts the category
    np.testing.assert_array_equal((i // torch.tensor([2, 2, 3])).tolist(), [1, -4, 2])
