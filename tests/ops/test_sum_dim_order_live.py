"""``sum(dim)`` and ``mean(dim)`` over some dims of a float32/float64 tensor in PyTorch's order (ops/reduction.py ``_dim_sum``:
cascade_sum of SumKernel.cpp under TensorIterator's dim order), bit for bit against live PyTorch 2.13 (AVX2):
inner and outer reductions, several reduced runs, transposed (permuted contiguous) inputs, size-1 dims, and
widths either side of the vector width and of the 4-row / 32-column splits.  A Linear's bias gradient is
``grad.sum(0)``, so a training loop drifts from PyTorch's when this order is not PyTorch's."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gradcli.app.oracle import INSTALL_HINT, torch_available
from gradcli.autograd import dtypes as dt
from gradcli.autograd.tensor import Tensor
from gradcli.ops import reduction

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

_SHAPES = ([(r, c) for r in (2, 3, 4, 5, 8, 9, 16, 17, 33, 100, 257) for c in (1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 65)]
           + [(2, 3, 4), (4, 5, 6), (3, 8, 10), (16, 4, 4), (2, 33, 7), (5, 1, 9), (6, 7, 1), (3, 4, 5, 6),
              (2, 3, 1, 4, 5), (64, 512), (512, 64)])


def _cases():
    out = []
    for i, shp in enumerate(_SHAPES):
        nd = len(shp)
        dimsets = [c for k in range(1, nd) for c in itertools.combinations(range(nd), k)]
        for dtype in ("float32", "float64"):
            for transposed in ((False, True) if nd == 2 else (False,)):
                out.append({"id": f"{'x'.join(map(str, shp))}-{dtype}{'-T' if transposed else ''}", "seed": i,
                            "shape": shp, "dtype": dtype, "transposed": transposed, "dims": dimsets})
    return out


CASES = _cases()

_TORCH = r"""
import json, sys
import numpy as np
import torch
out = {}
for c in json.loads(sys.argv[1]):
    a = np.random.default_rng(c["seed"]).standard_normal(c["shape"]).astype(c["dtype"])
    t = torch.from_numpy(a.T.copy()).t() if c["transposed"] else torch.from_numpy(a)
    out[c["id"]] = [t.sum(dim=tuple(d)).numpy().tobytes().hex() for d in c["dims"]]
    out[c["id"] + "-mean"] = [t.mean(dim=tuple(d)).numpy().tobytes().hex() for d in c["dims"]]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pytorch_bits():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    r = subprocess.run([sys.executable, "-c", _TORCH, json.dumps(CASES)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_sum_over_dims_is_pytorchs_order(case, pytorch_bits):
    a = np.random.default_rng(case["seed"]).standard_normal(case["shape"]).astype(case["dtype"])
    if case["transposed"]:
        a = a.T.copy().T  # the same values, column-major memory (PyTorch's x.t() of a contiguous x.t())
    x = Tensor._from_data(a, dt.by_name(case["dtype"]))
    for dims, want in zip(case["dims"], pytorch_bits[case["id"]]):
        got = reduction.sum(x, dim=tuple(dims))._data
        assert np.ascontiguousarray(got).tobytes().hex() == want, f"dims {dims}"
        kept = reduction.sum(x, dim=tuple(dims), keepdim=True)._data
        assert kept.shape == tuple(1 if d in dims else s for d, s in enumerate(case["shape"]))
        assert np.ascontiguousarray(kept).tobytes().hex() == want
    for dims, want in zip(case["dims"], pytorch_bits[case["id"] + "-mean"]):  # mean_out on CPU: sum, then div_
        assert np.ascontiguousarray(reduction.mean(x, dim=tuple(dims))._data).tobytes().hex() == want, f"mean {dims}"


def test_outside_the_order_numpy_sums():
    """Above one thread's grain, and for a non-contiguous view, the order is not reproduced: numpy's sum."""
    big = np.ones((300, 200), np.float32)  # 60,000 elements > 32,768
    assert reduction._dim_sum(big, (0,), dt.float32) is None
    strided = np.ones((8, 12), np.float32)[:, ::2]
    assert reduction._dim_sum(strided, (0,), dt.float32) is None
    assert reduction._dim_sum(np.ones((4, 3), np.int64), (0,), dt.int64) is None
