"""relu's backward, threshold_backward(grad, self, 0) = where(self <= 0, 0, grad), computed on the bits
(ops/elementwise.threshold_backward: grad AND a mask), checked bit for bit against live PyTorch 2.13 on the
values where a shortcut would go wrong: NaN/inf gradients where the input is <= 0 (0, not NaN), negative
gradients there (+0.0, not -0.0), -0.0 gradients kept where the input is > 0, NaN inputs (the gradient passes)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gradcli.api import torch_namespace
from gradcli.app.oracle import INSTALL_HINT, torch_available

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

_SPECIAL_X = [float("nan"), 0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), 1e-30, -1e-30, 2.5]
_SPECIAL_G = [float("inf"), float("nan"), -2.0, -0.0, float("-inf"), 0.0, -0.0, float("nan"), -3.0, -0.0]


def _case(dtype: str):
    rng = np.random.default_rng(7)
    x = np.concatenate([_SPECIAL_X, rng.standard_normal(54)])  # (and a 0-d case below)
    g = np.concatenate([_SPECIAL_G, rng.standard_normal(54)])
    return x.reshape(8, 8).tolist(), g.reshape(8, 8).tolist()


_TORCH = r"""
import json, sys
import torch
x, g, dtype = json.loads(sys.stdin.read())
dt = getattr(torch, dtype)
xt = torch.tensor(x, dtype=dt, requires_grad=True)
y = torch.relu(xt)
y.backward(torch.tensor(g, dtype=dt))
bits = {"float32": torch.int32, "float64": torch.int64, "float16": torch.int16}[dtype]
print(json.dumps(xt.grad.view(bits).flatten().tolist()))
"""


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_relu_backward_bits_match_pytorch(dtype):
    x, g = _case(dtype)
    want = json.loads(subprocess.run([sys.executable, "-c", _TORCH], input=json.dumps([x, g, dtype]),
                                     capture_output=True, text=True, check=True).stdout)
    torch = torch_namespace()
    dt = getattr(torch, dtype)
    xt = torch.tensor(x, dtype=dt, requires_grad=True)
    torch.relu(xt).backward(torch.tensor(g, dtype=dt))
    signed = {"float32": np.int32, "float64": np.int64, "float16": np.int16}[dtype]
    got = xt.grad._data.view(signed).reshape(-1).tolist()
    assert got == want


def test_masked_gradients_are_positive_zero_and_nan_inputs_pass():
    # mathematics of where(x <= 0, 0, g), without PyTorch: the cases the bit mask must get right
    torch = torch_namespace()
    xt = torch.tensor([float("nan"), 0.0, -1.0, 2.0], requires_grad=True)
    torch.relu(xt).backward(torch.tensor([5.0, float("nan"), -2.0, -0.0]))
    got = xt.grad._data
    assert got[0] == 5.0
    assert got[1] == 0.0 and not np.signbit(got[1])
    assert got[2] == 0.0 and not np.signbit(got[2])
    assert got[3] == 0.0 and np.signbit(got[3])


@pytest.mark.parametrize("value, want", [(0.5, 3.0), (-0.5, 0.0), (0.0, 0.0)])
def test_zero_dim(value, want):
    torch = torch_namespace()
    x = torch.tensor(value, requires_grad=True)
    torch.relu(x).backward(torch.tensor(3.0))
    assert x.grad._data.shape == () and float(x.grad._data) == want
