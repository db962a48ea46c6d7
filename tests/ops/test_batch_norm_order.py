"""batch_norm's float32 rounding is ATen's CPU kernels' (ops/batch_norm_order.py): the saved mean and invstd,
the running statistics, the output and every gradient bit for bit against live PyTorch 2.13 (AVX2, one
thread) on (N, C), (N, C, L) and (N, C, H, W) inputs, half of the channels ill-conditioned (spread far
below the mean), training and evaluation, with and without weight and bias, with a dense gradient and with
the expanded one of ``out.sum().backward()`` (ATen's strided backward)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import gradcli.ops  # noqa: F401
from gradcli.app.oracle import INSTALL_HINT, torch_available
from gradcli.autograd import dtypes as dt
from gradcli.autograd.tensor import Tensor
from gradcli.ops import batch_norm_order
from gradcli.ops.normalization import batch_norm

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

_INPUTS = r"""
import numpy as np

def inputs(spec):
    name, shape, affine, training, momentum, eps, grad, seed = spec
    rng = np.random.default_rng(seed)
    c = shape[1]
    bshape = (1, c) + (1,) * (len(shape) - 2)
    scale = np.where(rng.random(c) < 0.5, 1e-3, 1.0).reshape(bshape)
    x = (rng.standard_normal(shape) * scale + rng.standard_normal(c).reshape(bshape) * 3).astype(np.float32)
    w = rng.standard_normal(c).astype(np.float32)
    b = rng.standard_normal(c).astype(np.float32)
    rm = rng.standard_normal(c).astype(np.float32)
    rv = (rng.random(c) + 0.1).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    return x, w, b, rm, rv, dy
"""

_TORCH = _INPUTS + r"""
import json, sys
import torch
torch.set_num_threads(1)
out = {}
for spec in json.loads(sys.argv[1]):
    name, shape, affine, training, momentum, eps, grad, seed = spec
    x, w, b, rm, rv, dy = inputs(spec)
    X = torch.tensor(x, requires_grad=True)
    W = torch.tensor(w, requires_grad=True) if affine else None
    B = torch.tensor(b, requires_grad=True) if affine == 2 else None
    RM, RV = torch.tensor(rm), torch.tensor(rv)
    y = torch.nn.functional.batch_norm(X, RM, RV, W, B, training, momentum, eps)
    if grad == "sum":
        y.sum().backward()
    else:
        y.backward(torch.tensor(dy))
    got = {"y": y, "gx": X.grad, "rm": RM, "rv": RV}
    if affine:
        got["gw"] = W.grad
    if affine == 2:
        got["gb"] = B.grad
    out[name] = {k: v.detach().numpy().tobytes().hex() for k, v in got.items()}
print(json.dumps(out))
"""

_namespace: dict = {}
exec(_INPUTS, _namespace)  # the same inputs on both sides
_inputs = _namespace["inputs"]


def _specs():
    rng = np.random.default_rng(28)
    shapes = [(2, 3), (4, 1), (5, 7), (6, 8), (9, 9), (40, 17), (3, 33), (64, 12),
              (2, 3, 1), (4, 9, 1), (3, 2, 5), (2, 5, 8), (4, 3, 13), (1, 4, 50), (7, 10, 21),
              (2, 2, 3, 3), (1, 3, 4, 4), (3, 5, 2, 7), (2, 9, 1, 1), (5, 4, 6, 5)]
    out = []
    for i, shape in enumerate(shapes):
        for j in range(4):
            affine, training = j % 3, j != 3
            momentum = float(rng.choice([0.1, 0.01, 0.5, 0.37]))
            eps = float(rng.choice([1e-5, 1e-3, 0.1]))
            grad = "sum" if (i + j) % 3 == 0 else "dense"
            out.append([f"{'x'.join(map(str, shape))}-{affine}-{'train' if training else 'eval'}-{grad}",
                        list(shape), affine, training, momentum, eps, grad, 1000 * i + j])
    return out


@pytest.fixture(scope="module")
def pytorch_bits():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", _TORCH, json.dumps(_specs())], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_supported_dtypes():
    assert batch_norm_order.supported(np.float32)
    assert not batch_norm_order.supported(np.float64) and not batch_norm_order.supported(np.float16)


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s[0])
def test_batch_norm_bits_are_atens(spec, pytorch_bits):
    name, shape, affine, training, momentum, eps, grad, seed = spec
    x, w, b, rm, rv, dy = _inputs(spec)
    f = dt.float32
    X = Tensor._from_data(x, f).requires_grad_()
    W = Tensor._from_data(w, f).requires_grad_() if affine else None
    B = Tensor._from_data(b, f).requires_grad_() if affine == 2 else None
    RM, RV = Tensor._from_data(rm.copy(), f), Tensor._from_data(rv.copy(), f)
    y = batch_norm(X, RM, RV, W, B, training, momentum, eps)
    if grad == "sum":
        y.sum().backward()
    else:
        y.backward(Tensor._from_data(dy, f))
    got = {"y": y._data, "gx": X.grad._data, "rm": RM._data, "rv": RV._data}
    if affine:
        got["gw"] = W.grad._data
    if affine == 2:
        got["gb"] = B.grad._data
    want = pytorch_bits[name]
    for k, v in got.items():
        w_ = np.frombuffer(bytes.fromhex(want[k]), dtype=np.float32)
        g_ = np.ascontiguousarray(v, dtype=np.float32).reshape(-1)
        assert g_.tobytes().hex() == want[k], f"{k}: {int((g_ != w_).sum())} of {g_.size} elements differ"
