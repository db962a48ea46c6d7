"""float32 ``mm`` with N == 1 in MKL's m == 1 order (ops/gemm_order.py ``gemv_cols``), bit for bit against
live PyTorch 2.13 (AVX2, 2 threads as the recorders run it): a column-major left operand (``x.t() @ g``, the
weight gradient of a Linear to one feature) at M 2..200 and K 1..4097, aligned and not, with the right
operand row-major or transposed, also unaligned (operands starting 1-3 floats into their storage, a padded
leading dimension), and M == 1 with a row-major right operand; plus the layouts the order does
not cover, which must be left to numpy (``None``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gradcli.app.oracle import INSTALL_HINT, torch_available
from gradcli.ops import gemm_order

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

#: (M, K, right operand transposed)
SHAPES = [(m, k, t) for m, k in ((2, 1), (2, 7), (3, 2000), (3, 8), (4, 16), (5, 17), (7, 33), (8, 64), (12, 100),
                                 (16, 129), (33, 512), (64, 1000), (100, 31), (130, 3001), (200, 4097), (3, 4096),
                                 (6, 2), (9, 255), (31, 257), (2, 5000))
          for t in (False, True)] + [(1, k, False) for k in (1, 3, 8, 24, 64, 100, 513, 2000)]

#: (M, K, offset in floats): x[:, off:].t() @ g[off:]
OFFSETS = [(m, k, off) for m, k in ((2, 5), (3, 2000), (5, 17), (16, 513), (33, 100)) for off in (1, 2, 3)]

_TORCH = r"""
import json, sys
import numpy as np
import torch
torch.set_num_threads(2)
out = {}
for m, k, t in json.loads(sys.argv[1]):
    rng = np.random.default_rng(m * 10007 + k * 2 + t)
    x = rng.standard_normal((k, m)).astype(np.float32)
    g = rng.standard_normal((1, k) if t else (k, 1)).astype(np.float32)
    b = torch.tensor(g).t() if t else torch.tensor(g)
    out[f"{m}-{k}-{int(t)}"] = torch.mm(torch.tensor(x).t(), b).numpy().tobytes().hex()
for m, k, off in json.loads(sys.argv[2]):
    rng = np.random.default_rng(m * 31 + k * 7 + off)
    x = rng.standard_normal((k, m + off)).astype(np.float32)
    g = rng.standard_normal((k + off, 1)).astype(np.float32)
    out[f"off-{m}-{k}-{off}"] = torch.mm(torch.tensor(x)[:, off:].t(), torch.tensor(g)[off:]).numpy().tobytes().hex()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pytorch_bits():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    r = subprocess.run([sys.executable, "-c", _TORCH, json.dumps(SHAPES), json.dumps(OFFSETS)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _operands(m: int, k: int, t: bool):
    rng = np.random.default_rng(m * 10007 + k * 2 + t)
    x = rng.standard_normal((k, m)).astype(np.float32)
    g = rng.standard_normal((1, k) if t else (k, 1)).astype(np.float32)
    return x.T, (g.T if t else g)  # the same strides as PyTorch's x.t() and g.t()


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}{'-bT' if s[2] else ''}")
def test_n1_bits_are_mkls(shape, pytorch_bits):
    m, k, t = shape
    a, b = _operands(m, k, t)
    got = gemm_order.sgemm(a, b, t)
    assert got is not None
    want = np.frombuffer(bytes.fromhex(pytorch_bits[f"{m}-{k}-{int(t)}"]), dtype=np.float32)
    assert got.reshape(-1).tobytes() == want.tobytes(), f"{np.count_nonzero(got.reshape(-1) != want)} of {m} differ"


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("case", OFFSETS, ids=lambda s: f"{s[0]}x{s[1]}+{s[2]}")
def test_n1_bits_unaligned(case, pytorch_bits):
    m, k, off = case
    rng = np.random.default_rng(m * 31 + k * 7 + off)
    x = rng.standard_normal((k, m + off)).astype(np.float32)
    g = rng.standard_normal((k + off, 1)).astype(np.float32)
    got = gemm_order.sgemm(x[:, off:].T, g[off:], False)
    want = np.frombuffer(bytes.fromhex(pytorch_bits[f"off-{m}-{k}-{off}"]), dtype=np.float32)
    assert got is not None and got.reshape(-1).tobytes() == want.tobytes()


def test_layouts_outside_the_order_are_left_to_numpy():
    rng = np.random.default_rng(0)
    row = rng.standard_normal((3, 50)).astype(np.float32)  # row-major left operand, M >= 2: not established
    b = rng.standard_normal((50, 1)).astype(np.float32)
    assert gemm_order.sgemm(row, b) is None
    one = rng.standard_normal((1, 50)).astype(np.float32)  # M == 1 with a transposed right operand: differs
    assert gemm_order.sgemm(one, rng.standard_normal((1, 50)).astype(np.float32).T, True) is None
    assert gemm_order.sgemm(row.T.copy().T, b, c=np.zeros(1, np.float32)) is None  # addmm's beta = 1


def test_sum_starts_from_plus_zero():
    """PyTorch 2.13: torch.signbit(torch.mm(torch.full((3, 2), -0.0).t(), torch.ones(3, 1))) is all False."""
    a = np.asfortranarray(np.full((2, 3), -0.0, np.float32))  # column-major, every product -0.0
    out = gemm_order.gemv_cols(a, np.ones((3, 1), np.float32))
    assert out.shape == (2, 1) and not np.signbit(out).any()


#: (M, K) of F.linear to one feature where MKL sums in k order (gemm_order.gemv_rows_small)
LINEAR_ONE = [(m, k) for m in (1, 2, 3) for k in (2, 3, 5, 8, 11)] + [(m, k) for m in (4, 7, 64, 2000) for k in (2, 3, 4)]

_TORCH_LINEAR = r"""
import json, sys
import numpy as np
import torch
import torch.nn.functional as F
torch.set_num_threads(2)
out = {}
for m, k in json.loads(sys.argv[1]):
    rng = np.random.default_rng(m * 7919 + k)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (1, k), (1,)))
    out[f"{m}-{k}"] = F.linear(torch.tensor(x), torch.tensor(w)).numpy().tobytes().hex()
    out[f"{m}-{k}-b"] = F.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b)).numpy().tobytes().hex()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def linear_bits():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    r = subprocess.run([sys.executable, "-c", _TORCH_LINEAR, json.dumps(LINEAR_ONE)], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("shape", LINEAR_ONE, ids=lambda s: f"{s[0]}x{s[1]}")
def test_linear_to_one_feature_sums_in_k_order(shape, linear_bits):
    m, k = shape
    rng = np.random.default_rng(m * 7919 + k)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (1, k), (1,)))
    got = gemm_order.sgemm(x, w.T, True)
    assert got is not None and got.tobytes().hex() == linear_bits[f"{m}-{k}"]
    got = gemm_order.sgemm(x, w.T, True, c=b)
    assert got is not None and got.tobytes().hex() == linear_bits[f"{m}-{k}-b"]


def test_linear_to_one_feature_beyond_the_measured_sizes_is_left_to_numpy():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((1, 5)).astype(np.float32)
    assert gemm_order.gemv_rows_small(rng.standard_normal((4, 5)).astype(np.float32), w.T, True) is None
    w12 = rng.standard_normal((1, 12)).astype(np.float32)
    assert gemm_order.gemv_rows_small(rng.standard_normal((2, 12)).astype(np.float32), w12.T, True) is None
