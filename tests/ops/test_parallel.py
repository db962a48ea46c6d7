"""gradcli.ops.parallel: a large elementwise call split over two threads gives the single call's result."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gradcli.ops import parallel as P

N = P.PARALLEL_MIN + 37  # odd, above the threshold: both halves run, of different lengths


@pytest.fixture(scope="module")
def arrays():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    return a, b


@pytest.mark.parametrize("fn", [np.add, np.subtract, np.multiply, np.true_divide, np.greater, np.maximum])
def test_binary_equals_single_call(arrays, fn):
    a, b = arrays
    for x, y, dtype in ((a, b, None), (a, 2.5, None), (0.5, a, None), (a, b, np.float64), (a, 3, None)):
        if dtype is not None and fn in (np.greater,):
            continue  # (a comparison has no float64 loop to ask for)
        want = fn(x, y) if dtype is None else fn(x, y, dtype=dtype)
        got = P.binary(fn, x, y, dtype)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert want.tobytes() == got.tobytes()  # bit for bit, -0.0 and nan payloads included


def test_integer_and_fallback_cases(arrays):
    a, _ = arrays
    i = (a * 100).astype(np.int64)
    assert np.array_equal(P.binary(np.floor_divide, i, 7), np.floor_divide(i, 7))
    t = np.ascontiguousarray(np.stack([a[:1000]] * 1100)).T  # not C-contiguous: one plain call
    assert np.array_equal(P.binary(np.add, t, 1.0), t + 1.0)
    small = a[:1000]
    assert np.array_equal(P.binary(np.add, small, small), small + small)


@pytest.mark.parametrize("fn", [np.negative, np.abs, np.sqrt, np.floor])
def test_unary_equals_single_call(arrays, fn):
    a, _ = arrays
    with np.errstate(all="ignore"):
        want, got = fn(a), P.unary(fn, a)
    assert want.tobytes() == got.tobytes()


def test_errstate_reaches_the_second_thread():
    a = np.ones(N, np.float32)
    a[-1] = 0.0  # the only division by zero is in the second half
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            P.binary(np.true_divide, 1.0, a)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(divide="ignore"):
            out = P.binary(np.true_divide, 1.0, a)
    assert out[-1] == np.inf and out[0] == 1.0


@pytest.mark.parametrize("shape", [(1100, 1000), (3, 400000), (P.PARALLEL_MIN + 3, 1)])
@pytest.mark.parametrize("log", [True, False])
def test_softmax_rows_equal_whole_array_steps(shape, log):
    from gradcli.ops import nn

    a = (np.random.default_rng(1).standard_normal(shape) * 5).astype(np.float32)
    a[0, 0] = np.inf  # a row of nan, as the whole-array steps give it
    with np.errstate(all="ignore"):
        sh = a - np.max(a, axis=-1, keepdims=True)
        e = np.exp(sh)
        s = np.sum(e, axis=-1, keepdims=True)
        want = sh - np.log(s) if log else e / s
    assert want.tobytes() == nn._softmax_rows(a, log).tobytes()


def test_fused_grad_minus_rounds_once():
    from gradcli.ops import nn

    rng = np.random.default_rng(2)
    g = rng.standard_normal((1100, 1000)).astype(np.float32)
    e = rng.random((1100, 1000)).astype(np.float32)
    s = g.sum(axis=1, keepdims=True)
    want = (g.astype(np.float64) - e.astype(np.float64) * s.astype(np.float64)).astype(np.float32)
    assert want.tobytes() == nn._fused_grad_minus(g, e, s).tobytes()


# --- matrix products (OpenBLAS is pinned to one thread: gradcli.host) ---------------------------------------

_MM_SHAPES = [((64, 48), (48, 40)), ((5, 64, 48), (48, 40)), ((3, 1, 9, 30), (4, 30, 7)), ((65, 48), (48,)),
              ((2, 33), (33, 2))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("sa, sb", _MM_SHAPES)
def test_matmul_split_is_two_halves_of_rows(sa, sb, dtype, monkeypatch):
    # forced split (threshold 0): the result is exactly the two row-halves computed each by one call,
    # whatever the machine's core count; and the same again on a second call
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(sa) * 4).astype(dtype)
    b = (rng.standard_normal(sb) * 4).astype(dtype)
    monkeypatch.setattr(P, "MATMUL_PARALLEL_MIN", 0)
    got = P.matmul(a, b)
    h = a.shape[-2] // 2
    want = np.concatenate([np.matmul(a[..., :h, :], b), np.matmul(a[..., h:, :], b)],
                          axis=-1 if b.ndim == 1 else -2)
    assert got.dtype == want.dtype and got.shape == np.matmul(a, b).shape
    assert got.tobytes() == want.tobytes()
    assert P.matmul(a, b).tobytes() == got.tobytes()
    np.testing.assert_allclose(got, np.matmul(a, b), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("sa, sb", _MM_SHAPES + [((1, 50), (50, 3)), ((50,), (50, 3))])
def test_matmul_below_the_threshold_is_one_call(sa, sb, monkeypatch):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    monkeypatch.setattr(P, "MATMUL_PARALLEL_MIN", float("inf"))
    assert P.matmul(a, b).tobytes() == np.matmul(a, b).tobytes()


def test_matmul_shape_errors_are_numpys():
    with pytest.raises(ValueError):
        P.matmul(np.ones((4000, 3)), np.ones((4, 2000)))
    with pytest.raises(ValueError):
        P.matmul(np.ones((2, 4000, 30)), np.ones((3, 30, 2000)))
