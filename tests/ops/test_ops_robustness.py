"""Wrong arguments never crash gradcli's linalg / nn / reduction_more / misc ops.

Every call with odd arguments (numbers, None, strings, int/bool/empty/0-d tensors, wrong keyword values) must
either work or raise what PyTorch users see: a GradcliError (with its SPEC §4 kind), TypeError or IndexError.
Any other exception would be reported by the CLI as an internal bug (exit 70).
"""

from __future__ import annotations

import itertools

import pytest

import gradcli.ops  # noqa: F401
from gradcli import errors
from gradcli.api import torch_namespace
from gradcli.ops.registry import REGISTRY

torch = torch_namespace()
F = torch.nn.functional

_MODULES = ("gradcli.ops.linalg", "gradcli.ops.nn", "gradcli.ops.reduction_more", "gradcli.ops.misc")
# operator methods are only ever called with a Tensor as self
_OPS = sorted(n for n, op in REGISTRY.items()
              if getattr(op.fn, "__module__", "") in _MODULES and n not in ("matmul_op", "rmatmul"))

_ALLOWED = (errors.GradcliError, TypeError, IndexError)


def _values():
    return [
        torch.tensor(2.0, requires_grad=True),
        torch.tensor([1.0, -2.0, 0.0], requires_grad=True),
        torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]], dtype=torch.float64),
        torch.ones(2, 3, 2),
        torch.tensor([1, 2, 0]),
        torch.tensor([[True, False, True]]),
        torch.zeros(0, 3),
        2, -1, 0.5, None, (0, 1), "mean", [1, 2],
    ]


@pytest.mark.parametrize("name", _OPS)
def test_positional_arguments_never_crash(name):
    fn = REGISTRY[name].fn
    vals = _values()
    crashes = []
    for k in (1, 2):
        for args in itertools.product(vals, repeat=k):
            try:
                fn(*args)
            except _ALLOWED:
                pass
            except Exception as e:  # noqa: BLE001
                crashes.append(f"{name}{tuple(type(a).__name__ for a in args)}: {type(e).__name__}: {e}")
    assert not crashes, "\n".join(crashes[:10])


def _kw_calls():
    X = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)
    T = torch.tensor([0, 2])
    return {
        "leaky_relu": (F.leaky_relu, (X,), ["negative_slope", "inplace"]),
        "gelu": (F.gelu, (X,), ["approximate"]),
        "softplus": (F.softplus, (X,), ["beta", "threshold"]),
        "softmax": (F.softmax, (X,), ["dim", "dtype"]),
        "log_softmax": (torch.log_softmax, (X,), ["dim", "dtype"]),
        "mse_loss": (F.mse_loss, (X, X.detach()), ["reduction", "weight", "size_average", "reduce"]),
        "l1_loss": (F.l1_loss, (X, X.detach()), ["reduction", "weight"]),
        "binary_cross_entropy": (F.binary_cross_entropy, (X.sigmoid(), X.detach().sigmoid()), ["reduction", "weight"]),
        "bce_with_logits": (F.binary_cross_entropy_with_logits, (X, X.detach().sigmoid()),
                            ["reduction", "weight", "pos_weight"]),
        "nll_loss": (F.nll_loss, (X, T), ["reduction", "weight", "ignore_index"]),
        "cross_entropy": (F.cross_entropy, (X, T), ["reduction", "weight", "ignore_index", "label_smoothing"]),
        "linear": (F.linear, (X, torch.ones(2, 3)), ["bias"]),
        "addmm": (torch.addmm, (torch.ones(2, 2), X, torch.ones(3, 2)), ["beta", "alpha"]),
        "norm": (torch.norm, (X,), ["p", "dim", "keepdim", "dtype"]),
        "var": (torch.var, (X,), ["dim", "unbiased", "keepdim", "correction"]),
        "std": (torch.std, (X,), ["dim", "correction", "keepdim"]),
        "max": (torch.max, (X,), ["dim", "keepdim"]),
        "amax": (torch.amax, (X,), ["dim", "keepdim"]),
        "prod": (torch.prod, (X,), ["dim", "keepdim", "dtype"]),
        "logsumexp": (torch.logsumexp, (X,), ["dim", "keepdim"]),
        "cumsum": (torch.cumsum, (X,), ["dim", "dtype"]),
        "cumprod": (torch.cumprod, (X,), ["dim", "dtype"]),
        "argmax": (torch.argmax, (X,), ["dim", "keepdim"]),
        "masked_fill": (torch.masked_fill, (X, X > 0), ["value"]),
        "index_select": (torch.index_select, (X,), ["dim", "index"]),
        "gather": (torch.gather, (X,), ["dim", "index"]),
        "tril": (torch.tril, (X,), ["diagonal"]),
        "diagonal": (torch.diagonal, (X,), ["offset", "dim1", "dim2"]),
        "roll": (torch.roll, (X,), ["shifts", "dims"]),
        "lerp": (torch.lerp, (X, X.detach()), ["weight"]),
        "hypot": (torch.hypot, (X,), ["other"]),
        "atan2": (torch.atan2, (X,), ["other"]),
        "matmul": (torch.matmul, (X,), ["other"]),
        "mm": (torch.mm, (X,), ["mat2"]),
        "outer": (torch.outer, (X[0],), ["vec2"]),
    }


_WEIRD = [None, "x", (0, 1), [1], 1.5, -3, True]


@pytest.mark.parametrize("name", sorted(_kw_calls()))
def test_keyword_arguments_never_crash(name):
    fn, args, kws = _kw_calls()[name]
    weird = _WEIRD + [torch.tensor(1.0), torch.ones(3), torch.tensor([1, 2])]
    crashes = []
    for kw in kws:
        for v in weird:
            try:
                fn(*args, **{kw: v})
            except _ALLOWED:
                pass
            except Exception as e:  # noqa: BLE001
                crashes.append(f"{name}({kw}={v!r}): {type(e).__name__}: {e}")
    assert not crashes, "\n".join(crashes[:10])
