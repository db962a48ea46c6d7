"""float32 products give PyTorch's (oneMKL's) exact bytes (data/gemm_cases.json, record_gemm.py); the k blocks
and the shapes reproduced are those measured (ops/gemm_order.py); no PyTorch needed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli.ops  # noqa: F401  (registers the ops, attaches Tensor methods)
from gradcli.autograd import dtypes as dt
from gradcli.autograd.tensor import Tensor
from gradcli.ops import gemm_order as G
from gradcli.ops import linalg

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "data" / "gemm_cases.json").read_text(encoding="utf-8"))


def values(n: int, salt: int) -> np.ndarray:
    """The recorder's inputs (record_gemm.values)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (-2.0 + 4.0 * u).astype(np.float32)


try:
    from gradcli.ops import _fmakernel
except ImportError:  # installed without a C compiler: only the numpy chains exist
    _fmakernel = None


@pytest.fixture(autouse=True, params=["compiled-fma", "compiled-libm", "numpy"])
def chains(request, monkeypatch):
    """Every test runs on each path of the FMA kernel's chains: the compiled module with the hardware's
    vfmadd, the compiled module with libm's fmaf, and numpy's emulation (the bits must not depend on it)."""
    if request.param == "numpy":
        monkeypatch.setattr(G, "_kernel", None)
    elif _fmakernel is None:
        pytest.skip("the optional compiled _fmakernel is not built in this install (no C compiler)")
    else:
        monkeypatch.setattr(G, "_kernel", _fmakernel)
        _fmakernel.set_hardware(request.param == "compiled-fma")
        request.addfinalizer(lambda: _fmakernel.set_hardware(True))
    return request.param


def test_recorder_inputs_are_the_tests():
    src = (HERE / "record_gemm.py").read_text(encoding="utf-8")
    body = src[src.index("def values("):src.index("\n\n\n", src.index("def values("))]
    assert body.split('"""', 2)[2] in Path(__file__).read_text(encoding="utf-8")


def test_recorded_with_avx2_and_two_threads():
    assert DATA["capability"] == "AVX2" and DATA["threads"] == 2


def _operand(rows: int, cols: int, transposed: bool, salt: int) -> Tensor:
    if transposed:  # a .t() view, as mm's backward passes it
        return Tensor._from_data(values(rows * cols, salt).reshape(cols, rows), dt.float32).t()
    return Tensor._from_data(values(rows * cols, salt).reshape(rows, cols), dt.float32)


def _check(got: np.ndarray, case: dict) -> None:
    data = np.ascontiguousarray(got).astype(np.float32, copy=False).tobytes()
    if "hex" in case:
        want = np.frombuffer(bytes.fromhex(case["hex"]), dtype=np.float32)
        bad = np.nonzero(np.frombuffer(data, dtype=np.float32) != want)[0]
        assert data.hex() == case["hex"], f"{len(bad)} elements differ, first at {bad[:5]}"
    else:
        assert hashlib.sha256(data).hexdigest() == case["sha256"]


def _mm_id(c):
    m, k, n = c["shape"]
    return f"{m}x{k}x{n}" + ("-ta" if c["ta"] else "") + ("-tb" if c["tb"] else "")


@pytest.mark.parametrize("case", DATA["mm"], ids=[_mm_id(c) for c in DATA["mm"]])
def test_mm_bytes_match_pytorch(case):
    m, k, n = case["shape"]
    a, b = _operand(m, k, case["ta"], 1), _operand(k, n, case["tb"], 2)
    assert G.supported(m, k, n, linalg._blas_transposed(b._data)) and linalg._blas_transposed(b._data) == case["tb"]
    _check(a.mm(b)._data, case)


@pytest.mark.parametrize("case", DATA["fold"], ids=[f"{c['kind']}-{c['a']}-{c['b']}" for c in DATA["fold"]])
def test_folded_matmul_bytes_match_pytorch(case):
    a = Tensor._from_data(values(int(np.prod(case["a"])), 3).reshape(case["a"]), dt.float32)
    b = Tensor._from_data(values(int(np.prod(case["b"])), 4).reshape(case["b"]), dt.float32)
    _check((a.matmul(b) if case["kind"] == "matmul" else a @ b)._data, case)


def addmm_operands(kind: str, m: int, k: int, n: int):
    """(input, mat1 / x, mat2 / weight) as numpy arrays for an ADDMM_CASES entry (the test builds the same)."""
    x = values(m * k, 5).reshape(m, k)
    if kind.startswith("linear"):
        w = values(n * k, 6).reshape(n, k)
        bias = values(n, 7)
        if kind == "linear_3d":
            x = values(2 * m * k, 5).reshape(2, m, k)
        if kind == "linear_offset":  # x a view one element into its storage: rows off 16-byte boundaries
            x = values(m * k + 1, 5)[1:].reshape(m, k)
        return bias, x, w
    b = values(k * n, 6).reshape(k, n)
    shape = {"addmm_row": (n,), "addmm_matrix": (m, n), "addmm_col": (m, 1)}[kind]
    return values(int(np.prod(shape)), 7).reshape(shape), x, b


def test_recorder_addmm_operands_are_the_tests():
    src = (HERE / "record_gemm.py").read_text(encoding="utf-8")
    start = src.index("def addmm_operands(")
    assert src[start:src.index("\n\n\n", start)] in Path(__file__).read_text(encoding="utf-8")


@pytest.mark.parametrize("case", DATA["addmm"], ids=[f"{c['kind']}-{c['shape']}" for c in DATA["addmm"]])
def test_addmm_bytes_match_pytorch(case):
    from gradcli.ops.linalg import addmm, linear

    c, x, w = (Tensor._from_data(v, dt.float32) for v in addmm_operands(case["kind"], *case["shape"]))
    r = linear(x, w, c) if case["kind"].startswith("linear") else addmm(c, x, w)
    _check(r._data, case)


@pytest.mark.parametrize("k, blocks", [
    (1, [1]), (192, [192]), (193, [96, 96, 1]), (250, [125, 125]), (385, [192, 192, 1]),
    (386, [192, 192, 2]), (1000, [192] * 5 + [40]), (384, [192, 192])])
def test_k_blocks(k, blocks):
    assert G.k_blocks(k) == blocks and sum(blocks) == k


@pytest.mark.parametrize("m, k, n, tb, ok", [
    (64, 100, 1, False, False),   # N == 1: MKL's m == 1 path, not reproduced
    (64, 100, 7, False, True),    # the small kernel ...
    (64, 100, 7, True, True),     # ... with a transposed right operand: its dot-product form
    (1, 100, 7, True, False),     # one row with a transposed right operand: MKL's gemv, not reproduced
    (64, 100, 40, True, True),    # the FMA kernel with one: reproduced
    (6, 18, 16, False, False),    # the last rows of M < 12 with K < 19: other kernels
    (6, 19, 16, False, True),
    (13, 18, 16, False, True),    # M >= 12: the FMA kernel for every row
    (64, 1000, 100, False, True),   # 6.4M multiply-adds: emulated
    (600, 600, 600, False, False),  # over MAX_FMA multiply-adds: numpy's BLAS
    (3, 30000, 1500, False, False),  # over MAX_SMALL: numpy's BLAS
])
def test_supported_shapes(m, k, n, tb, ok):
    assert G.supported(m, k, n, tb) is ok


def test_unsupported_falls_back_to_blas():
    a = values(64 * 100, 1).reshape(64, 100)
    b = values(100, 2).reshape(100, 1)
    assert G.sgemm(a, b) is None
    got = linalg._mm_data(a, b, dt.float32)
    assert got.shape == (64, 1) and np.allclose(got, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_fma_kernel_exact_in_float_corners():
    """The FMA chains round once per step (fmaf), also for tiny partial sums and signed zeros."""
    a = np.array([[2.0 ** -70, -(2.0 ** -70), 1.0, -1.0]] * 4, np.float32)
    b = np.array([[2.0 ** -70] * 12, [2.0 ** -70] * 12, [-0.0] * 12, [0.0] * 12], np.float32)
    got = G.sgemm(a, b)
    assert got is not None and np.all(got == 0) and not np.signbit(got).any()  # +0.0 as fmaf from +0.0
    x = np.full((4, 3), 1.5 * 2.0 ** -75, np.float32)
    y = np.full((3, 12), 2.0 ** -75, np.float32)
    # each product is 0.75 * 2**-149 (below float32's smallest subnormal): the sums round to 1, 2, 3 * 2**-149
    assert np.all(G.sgemm(x, y) == np.float32(3 * 2.0 ** -149))


def test_blas_transposed_is_pytorchs_stride_test():
    base = np.zeros((5, 7), np.float32)
    assert linalg._blas_transposed(base) is False
    assert linalg._blas_transposed(base.T) is True
    assert linalg._blas_transposed(base[:, ::2]) is False  # copied row-major first


def test_fma_kernel_double_rounding_midpoint_falls_back_exactly():
    """A step whose float64 sum lands on a float32 midpoint is rounded as fmaf rounds it (mathematics: the
    exact sum 1 + 2**-23 + 2**-24 - 2**-70 lies below the midpoint 1 + 3 * 2**-24, so fmaf gives 1 + 2**-23;
    the double rounds to the midpoint first, and ties-to-even would give 1 + 2**-22)."""
    u = 2.0 ** -23
    a = np.tile(np.array([1.0, 1.0 + u], np.float32), (4, 1))
    b = np.stack([np.full(12, 1.0 + u), np.full(12, 2.0 ** -24 * (1.0 - u))]).astype(np.float32)
    assert float(np.float64(1.0 + u) * np.float64(2.0 ** -24 * (1.0 - u)) + (1.0 + u)) == 1.0 + 3 * 2.0 ** -24
    got = G.sgemm(a, b)
    assert got is not None and np.all(got == np.float32(1.0 + u))
    # the same after 20 zero steps (fmaf(0, 0, +0) = +0)
    a2 = np.concatenate([np.zeros((4, 20), np.float32), a], axis=1)
    b2 = np.concatenate([np.zeros((20, 12), np.float32), b])
    assert np.all(G.sgemm(a2, b2) == np.float32(1.0 + u))


def test_fma_kernel_paths_agree_on_random_operands(chains):
    """The compiled chains (both builds) and numpy's give the same bits on random operands (k within one
    block, two halves, blocks of 192; a bias)."""
    if chains == "numpy":
        return
    rng = np.random.default_rng(5)
    for m, k, n in [(8, 7, 12), (12, 200, 16), (4, 400, 13)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = rng.standard_normal(n).astype(np.float32)
        assert np.array_equal(G._fma_rows(a, b, c), G._numpy_rows(a, b, c))
