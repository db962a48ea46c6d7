"""gradcli's fused multiply-add ops give PyTorch's exact bytes (data/fused_cases.json, record_fused.py), and
the fast float32 FMA agrees with the always-exact one; no PyTorch needed."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import gradcli.ops  # noqa: F401  (registers the ops, attaches Tensor methods)
from gradcli.autograd import dtypes as dt
from gradcli.autograd import fma as F
from gradcli.autograd.tensor import Tensor
from gradcli import api

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "data" / "fused_cases.json").read_text(encoding="utf-8"))


def values(n: int, salt: int, lo: float, hi: float, dtype: str) -> np.ndarray:
    """The recorder's inputs (record_fused.values)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (lo + (hi - lo) * u).astype(dtype)


def test_recorder_inputs_are_the_tests():
    sys.path.insert(0, str(HERE))
    try:
        src = (HERE / "record_fused.py").read_text(encoding="utf-8")
    finally:
        sys.path.remove(str(HERE))
    body = src[src.index("def values("):src.index("\n\n\n", src.index("def values("))]
    mine = Path(__file__).read_text(encoding="utf-8")
    assert body.split('"""', 2)[2] in mine  # the same computation, line for line


def _ids():
    return [f"{c['name']}-{c['dtype']}-{c['n']}" for c in DATA["cases"]]


@pytest.mark.parametrize("case", DATA["cases"], ids=_ids())
def test_bytes_match_pytorch(case):
    torch = api.torch_namespace()
    dtype = getattr(dt, case["dtype"])
    arrs = [values(case["n"], salt, lo, hi, case["dtype"]) for salt, lo, hi in case["operands"]]
    env = dict(zip("abc", (Tensor._from_data(a.copy(), dtype) for a in arrs)), torch=torch)
    got = eval(case["expr"], env)._data  # noqa: S307 - the recorder's fixed expressions, on gradcli tensors
    data = np.ascontiguousarray(got).tobytes()
    if "hex" in case:
        want = np.frombuffer(bytes.fromhex(case["hex"]), dtype=case["dtype"])
        bad = np.nonzero(np.frombuffer(data, dtype=case["dtype"]) != want)[0]
        assert data.hex() == case["hex"], f"{len(bad)} elements differ, first at {bad[:5]}"
    else:
        assert hashlib.sha256(data).hexdigest() == case["sha256"]


def _f32(n, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * np.exp2(rng.integers(-30, 30, n))).astype(np.float32)


def test_fast_fma32_equals_exact_fma():
    a, b, c = _f32(200_000, 1), _f32(200_000, 2), _f32(200_000, 3)
    assert np.array_equal(F.fma32(a, b, c), F.fma_to_f32(a, b, c))


def test_fast_fma32_midpoints_and_subnormals():
    # a * b + c exactly halfway between two float32 after one float64 rounding: 1 + 2**-24 + tiny
    one = np.float32(1.0)
    tiny = np.float32(2.0 ** -60)
    cases = [
        (one, np.float32(2.0 ** -24), one),                         # exact midpoint: ties to even (1.0)
        (np.float32(1 + 2.0 ** -23), np.float32(2.0 ** -24), one),  # just above the midpoint: rounds up
        (tiny, tiny, np.float32(2.0 ** -149)),                      # subnormal result range
        (np.float32(2.0 ** -75), np.float32(2.0 ** -75), np.float32(-2.0 ** -149)),
        (np.float32(3e38), np.float32(2.0), np.float32(-3e38)),      # product beyond float32, sum inside
        (np.float32(np.inf), np.float32(0.5), one), (np.float32(np.nan), one, one),
    ]
    for a, b, c in cases:
        a_, b_, c_ = (np.array([v], dtype=np.float32) for v in (a, b, c))
        got, want = F.fma32(a_, b_, c_), F.fma_to_f32(a_, b_, c_)
        assert got.tobytes() == want.tobytes(), (a, b, c, got, want)
    # double rounding would give 1 + 2**-23 here; fmaf gives 1 + 2**-23 only when above the midpoint
    x = F.fma32(np.array([1 + 2.0 ** -23], np.float32), np.array([2.0 ** -24], np.float32),
                np.array([1.0], np.float32))
    assert x[0] == np.float32(1 + 2.0 ** -23)


def test_fma_broadcasts_and_keeps_zero_d():
    r = F.fma(np.float32(2.0), np.array([1.0, 2.0], np.float32), np.array(0.5, np.float32), np.float32)
    assert r.dtype == np.float32 and r.tolist() == [2.5, 4.5]
    r0 = F.fma(np.array(2.0), np.array(3.0), np.array(1.0), np.float64)
    assert r0.shape == () and float(r0) == 7.0
