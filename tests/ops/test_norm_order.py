"""layer_norm's float32/float64 rounding is ATen's CPU kernel's (ops/norm_order.py): mean, rstd, output and
every gradient bit for bit against live PyTorch 2.13 (AVX2, one thread), rows of 2 to 135 elements, most of
them ill-conditioned (spread far below the mean), with and without weight and bias."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import gradcli.ops  # noqa: F401
from gradcli.autograd import dtypes as dt
from gradcli.autograd.tensor import Tensor
from gradcli.ops import norm_order
from gradcli.app.oracle import INSTALL_HINT, torch_available
from gradcli.ops.normalization import layer_norm

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

_SIZES = (2, 3, 5, 7, 8, 9, 12, 16, 17, 31, 64, 100, 135)

_TORCH = r"""
import json, sys
import numpy as np
import torch
torch.set_num_threads(1)
out = {}
for spec in json.loads(sys.argv[1]):
    name, dtype, m, n, affine = spec
    rng = np.random.default_rng(n * 7 + affine)
    x = (rng.standard_normal((m, n)) * rng.random((m, 1)) * 0.01 + rng.standard_normal((m, 1)) * 3).astype(dtype)
    w = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    dy = rng.standard_normal((m, n)).astype(dtype)
    X = torch.tensor(x, requires_grad=True)
    W = torch.tensor(w, requires_grad=True) if affine else None
    B = torch.tensor(b, requires_grad=True) if affine == 2 else None
    y, mean, rstd = torch.native_layer_norm(X, (n,), W, B, 1e-5)
    y.backward(torch.tensor(dy))
    out[name] = {k: v.detach().numpy().tobytes().hex() for k, v in
                 (("y", y), ("mean", mean), ("rstd", rstd), ("gx", X.grad)) + ((("gw", W.grad),) if affine else ())
                 + ((("gb", B.grad),) if affine == 2 else ())}
print(json.dumps(out))
"""


def _specs():
    out = []
    for dtype in ("float32", "float64"):
        for n in _SIZES:
            if norm_order.supported(n, np.dtype(dtype)):
                for affine in (0, 1, 2):
                    out.append([f"{dtype}-{n}-{affine}", dtype, 40, n, affine])
    return out


@pytest.fixture(scope="module")
def pytorch_bits():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", _TORCH, json.dumps(_specs())], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_supported_sizes():
    assert norm_order.supported(135, np.float32) and not norm_order.supported(136, np.float32)
    assert norm_order.supported(67, np.float64) and not norm_order.supported(68, np.float64)


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s[0])
def test_layer_norm_bits_are_atens(spec, pytorch_bits):
    name, dtype, m, n, affine = spec
    rng = np.random.default_rng(n * 7 + affine)
    x = (rng.standard_normal((m, n)) * rng.random((m, 1)) * 0.01 + rng.standard_normal((m, 1)) * 3).astype(dtype)
    w = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    dy = rng.standard_normal((m, n)).astype(dtype)
    d = dt.float32 if dtype == "float32" else dt.float64
    X = Tensor._from_data(x, d).requires_grad_()
    W = Tensor._from_data(w, d).requires_grad_() if affine else None
    B = Tensor._from_data(b, d).requires_grad_() if affine == 2 else None
    y = layer_norm(X, (n,), W, B)
    y.backward(Tensor._from_data(dy, d))
    mean, rstd = norm_order.moments(x, 1e-5)
    want = pytorch_bits[name]
    got = {"y": y._data, "mean": mean, "rstd": rstd, "gx": X.grad._data}
    if affine:
        got["gw"] = W.grad._data
    if affine == 2:
        got["gb"] = B.grad._data
    for k, v in got.items():
        w_ = np.frombuffer(bytes.fromhex(want[k]), dtype=dtype)
        g_ = np.ascontiguousarray(v, dtype=dtype).reshape(-1)
        assert g_.tobytes().hex() == want[k], f"{k}: {int((g_ != w_).sum())} of {g_.size} elements differ"
