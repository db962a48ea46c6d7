"""torch.autograd.graph's hooks in the engine: saved-tensor hooks, Node hooks, multi-grad hooks.

The behaviour PyTorch shows is in the recorded cases (tests/conformance/graph_hooks/, and every op's pack and
unpack order in tests/ops/test_saved_hooks_recorded.py); these tests pin the engine-side invariants behind
them: what a hooked SavedTensor keeps, its autograd identity at unpack, the stack's reset between runs, and
PyTorch's rule for the order of a node's saved tensors.
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.api import torch_namespace
from gradcli.autograd import engine, graph
from gradcli.autograd.graph_hooks import saved_tensors_hooks
from gradcli.errors import GradcliError

torch = torch_namespace()


def test_hooked_saved_tensor_keeps_only_the_packed_object():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: ("packed", t.shape), lambda p: torch.ones(2)):
        y = x.sin()
    s = y.grad_fn._saved[0]
    assert s._tensor is None and s._data is None
    assert s._packed == ("packed", (2,))
    assert s.shape == (2,)
    # the unpack hook's tensor is what the rule reads: d sin(x) = cos(1) for the hook's ones
    (g,) = torch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g._data, np.cos(np.ones(2, dtype=np.float32)), rtol=1e-6)


def test_unpacked_leaf_keeps_the_leafs_accumulator():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach(), lambda p: p):
        y = x * x
    # create_graph: the unpacked x must lead to x's own AccumulateGrad, so d2/dx2 (x*x) = 2
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_array_equal(g2._data, [2.0, 2.0])


def test_no_version_check_through_hooks():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda p: p):
        h = x * 1
        y = h.exp()
    h.add_(1.0)  # the saved result is h's old value's exp; PyTorch cannot see the change through the hooks
    y.sum().backward()
    np.testing.assert_allclose(x.grad._data, np.exp(np.float32([0.5, 1.0])), rtol=1e-6)


def test_release_drops_the_hooks_and_a_second_backward_fails():
    x = torch.tensor([1.0], requires_grad=True)
    calls = []
    with saved_tensors_hooks(lambda t: t, lambda p: calls.append(1) or p):
        y = (x * x).sum()
    y.backward()
    assert calls == [1, 1]
    s = y.grad_fn.next_functions[0][0]._saved[0]
    assert s._hook is None and s._packed is None and s.freed
    with pytest.raises(GradcliError) as e:
        y.backward()
    assert e.value.kind == "second_backward"
    assert calls == [1, 1]


def test_pack_runs_with_grad_mode_off():
    x = torch.tensor([1.0], requires_grad=True)
    seen = []
    with saved_tensors_hooks(lambda t: seen.append(torch.is_grad_enabled()) or t, lambda p: p):
        x.exp()
    assert seen == [False]
    assert torch.is_grad_enabled()


def test_reset_clears_the_hook_stacks():
    graph.pack_hooks.append(graph.UserHooks(lambda t: t, lambda p: p))
    graph.hooks_disabled.append("off")
    graph.hooks_used[0] = True
    engine.reset()
    assert graph.pack_hooks == [] and graph.hooks_disabled == [] and graph.hooks_used == [False]


def test_only_the_innermost_pair_is_used():
    x = torch.tensor([1.0], requires_grad=True)
    outer, inner = [], []
    with saved_tensors_hooks(lambda t: outer.append(1) or t, lambda p: p):
        with saved_tensors_hooks(lambda t: inner.append(1) or t, lambda p: p):
            x.exp()
        x.sin()
    assert (outer, inner) == ([1], [1])
    assert graph.pack_hooks == []


def _pack_order_classes():
    from gradcli.ops import registry  # noqa: F401 - the op modules define the node classes

    seen, todo = [], [graph.Node]
    while todo:
        c = todo.pop()
        for sub in c.__subclasses__():
            seen.append(sub)
            todo.append(sub)
    return [c for c in seen if c.__dict__.get("_pack_order") is not None]


@pytest.mark.parametrize("cls", _pack_order_classes(), ids=lambda c: c.__name__)
def test_pack_orders_are_permutations(cls):
    order = cls._pack_order
    assert sorted(order) == list(range(min(order), min(order) + len(order))), order


def test_multi_grad_hook_mode_must_be_known():
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(GradcliError) as e:
        torch.autograd.graph.register_multi_grad_hook([x], print, mode="sum")
    assert "Expects mode to be one of ('all', 'any') but got sum" in str(e.value)
