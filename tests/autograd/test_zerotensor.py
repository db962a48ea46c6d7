"""PyTorch's ZeroTensor (sgn's immutable zero gradient), node by node, against real PyTorch 2.13.

Each expression builds ``y`` from leaves ``x`` and ``o``; the test takes
``autograd.grad(y.sgn().sum(), [x, o], allow_unused=True)`` in gradcli and in
PyTorch and requires the same ``_is_zerotensor()`` for every gradient
(gradcli.autograd.zerotensor.RULES was measured this way).  Skipped, with the
reason shown, when PyTorch is not installed.
"""

from __future__ import annotations

import importlib.util

import pytest

from gradcli.api import make_globals

_G = make_globals()

EXPRESSIONS = [
    "x", "x * o", "x * 2.0", "2.0 * x", "x * o[0]", "x / o", "x / 2.0", "2.0 / x", "x - o", "o - x", "x - 2.0",
    "2.0 - x", "x + o", "x.add(o, alpha=2)", "x ** 2", "x.pow(0)", "x ** o", "o ** x", "2 ** x",
    "torch.addmm(x, x, o)", "torch.rsub(x, o)", "torch.remainder(x, o)", "torch.remainder(x, 2.0)", "x.mean()",
    "x.sum()", "x.sum(0, keepdim=True)", "-x", "x.t()", "x[0]", "x[:, 1]", "x[0:1]", "x.view(4)", "x.reshape(4)",
    "x.expand(2, 2, 2)", "x.unsqueeze(0)", "x.squeeze()", "x.permute(1, 0)", "x.transpose(0, 1)", "x.clone()",
    "x.exp()", "x.abs()", "x.log()", "x.sin()", "x.cos()", "x.sqrt()", "x.tanh()", "x.sigmoid()", "x.relu()",
    "x @ o", "x.double()", "torch.cat([x, o])", "torch.stack([x, o])", "torch.where(x > 0, x, o)",
    "x.masked_fill(x > 0, 1.0)", "x.amax(0)", "x.max()", "x.cumsum(0)", "x.flip(0)", "x.softmax(0)",
    "x.logsumexp(0)", "x.var(0)", "x.norm()", "torch.atan2(x, o)", "x.lerp(o, 0.5)", "torch.mv(x, o[0])",
    "x.unbind()[0]", "x.chunk(2)[0]", "F.mse_loss(x, o)", "x.sgn() + x", "x.sgn() + x.sgn()", "x.std()",
]

_X = [[-0.5, 2.0], [1.5, -3.0]]
_O = [[1.0, -2.0], [0.5, 3.0]]


def _zero_flags(torch, F, expr: str):
    """The ZeroTensor flag of each gradient (None: unused), or the error's class name."""
    x = torch.tensor(_X, requires_grad=True)
    o = torch.tensor(_O, requires_grad=True)
    y = eval(expr, {"torch": torch, "F": F, "x": x, "o": o})  # noqa: S307 - fixed expressions of this file
    try:
        gs = torch.autograd.grad(y.sgn().sum(), [x, o], allow_unused=True)
    except Exception as e:  # noqa: BLE001 - PyTorch's RuntimeError, gradcli's runtime kind
        return "error: " + str(e).split(".")[0]
    return [None if g is None else bool(g._is_zerotensor()) for g in gs]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs PyTorch 2.13 (the torch extra)")
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_zero_tensor_flags_match_pytorch(expr):
    import torch
    import torch.nn.functional as F

    assert _zero_flags(_G["torch"], _G["F"], expr) == _zero_flags(torch, F, expr)


def test_leaf_grad_zero_tensor_refuses_in_place_and_tolist():
    """sgn's gradient reaching .grad: in place ops, tolist and a second backward fail (PyTorch 2.13's messages);
    clone() is a normal tensor."""
    torch = _G["torch"]
    x = torch.tensor([-0.5, 2.0], requires_grad=True)
    x.sgn().sum().backward()
    assert x.grad._is_zerotensor()
    with pytest.raises(Exception, match="ZeroTensors are immutable"):
        x.grad.zero_()
    with pytest.raises(Exception, match="unallocated storage"):
        x.grad.tolist()
    assert x.grad.clone().zero_().tolist() == [0.0, 0.0]
    with pytest.raises(Exception, match="ZeroTensors are immutable"):
        x.sgn().sum().backward()
