"""A backward with create_graph=True through layer_norm / batch_norm gives the first-order gradients as outputs
of one NativeLayerNormBackwardBackward0 / NativeBatchNormBackwardBackward0 node (PyTorch's graph: the values
and names are checked against PyTorch by the recorded case nn_norm/norm_create_graph).  batch_norm's second
derivative is PyTorch's batchnorm_double_backward (values: the recorded cases nn_norm/batch_norm_double_backward*);
layer_norm's is not reproduced, so a backward through its node is an ``unsupported`` error at its line, never a
silently wrong gradient."""

from __future__ import annotations

import textwrap

import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file


def _run(source: str):
    return run_file(textwrap.dedent(source), "test.py", RunOptions())


@pytest.mark.parametrize("make, node", [
    ("y = torch.layer_norm(x, (3,))", "NativeLayerNormBackwardBackward0"),
])
def test_backward_through_the_double_backward_node_is_unsupported(make, node):
    r = _run(f"""
        x = torch.rand(4, 3, requires_grad=True)
        {make}
        g, = torch.autograd.grad((y * y * y).sum(), [x], create_graph=True)
        print(g.grad_fn.name())
        g.sum().backward()
        print("unreachable")
    """)
    assert r.stdout == node + "\n"
    assert r.error is not None and r.error.kind == "unsupported" and r.error.line == 6, r.error  # (line 1 is the empty one)
    assert node in r.error.message


def test_create_graph_gradients_need_no_second_derivative():
    r = _run("""
        x = torch.rand(4, 3, requires_grad=True)
        bn = torch.nn.BatchNorm1d(3)
        bn(torch.layer_norm(x, (3,))).sum().backward(create_graph=True)
        print(x.grad.requires_grad, bn.weight.grad.grad_fn.name(), bn.weight.grad.grad_fn.next_functions[1][0].name())
        (bn(x) ** 2).sum().backward()
    """)
    assert r.ok, r.error
    assert r.stdout == "True torch::autograd::CopyBackwards NativeBatchNormBackwardBackward0\n"


def test_backward_through_batch_norms_double_backward_node_runs():
    r = _run("""
        x = torch.rand(4, 3, requires_grad=True)
        y = torch.nn.functional.batch_norm(x, None, None, training=True)
        g, = torch.autograd.grad((y * y * y).sum(), [x], create_graph=True)
        print(g.grad_fn.name())
        (g * g).sum().backward()
        print(x.grad.shape)
    """)
    assert r.ok, r.error
    assert r.stdout == "NativeBatchNormBackwardBackward0\ntorch.Size([4, 3])\n"
