"""``layer_norm`` in the order of ATen's CPU kernel (layer_norm_kernel.cpp, moments_utils.h), AVX2.

A row whose spread is small against its mean (after a ReLU, ``[0.125, 0.128, 0.189]``) makes layer_norm
ill-conditioned: ``1/std`` is large and the input gradient is a difference of terms many times larger
than itself, so its float32 value depends on how the kernel rounds, by more than SPEC 1's tolerance once
a BatchNorm or a few optimizer steps magnify it (the program generator found one: PyTorch -0.193187 for a
weight's gradient, float64-then-rounded -0.193197).  These functions compute what the kernel computes,
per row of ``N`` elements (``Vectorized<T>::size()`` lanes, 8 for float32 and 4 for float64):

* **Moments** (``RowwiseMoments``): Welford's update in each lane over the row's whole vectors
  (``m1 = fma(delta, 1/(j+1), m1)``, ``m2 = fma(delta, x - m1, m2)``), a scalar Welford over the last
  ``N % lanes`` elements (``m1 += delta / k``, ``m2 += delta * (x - m1)``, not fused), then each lane's
  moments merged into the scalar ones in lane order (``AddMoments``: ``m1 = fma(c, delta, m1)``, ``m2 +=
  fma(delta * delta * c, m0, m2_lane)``); ``var = m2 / N`` and ``rstd = 1 / sqrt(var + eps)``.  Rows of
  more than 16 vectors (``N >= 136`` in float32) are cascaded in chunks by ATen, which is not reproduced:
  :func:`supported` is False and the caller keeps its float64 formulas (within tolerance).
* **Input gradient** (``layer_norm_backward_frame``): ``ds = sum(dy * x * gamma)``, ``db = sum(dy *
  gamma)`` summed lane-wise over whole vectors, the last partial vector's products fused into the lanes'
  sums (``acc = fma(dy * x, gamma, acc)``), the lanes reduced ``((l0 + l4) + (l2 + l6)) + ((l1 + l5) +
  (l3 + l7))`` in float32 and one after another in float64; a row shorter than a vector: one element
  after another; ``b = fma(db, mean, -ds) * a * a * a / N``, ``c = fma(-b, mean, -(db * a / N))`` with ``a =
  rstd``, ``dx = fma(b, x, a * dy * gamma) + c``.

* **Weight and bias gradients**: the rows' terms summed in row order, ``dweight = fma(dy, fma(a, x,
  -a * mean), dweight)`` (``a * x - a * mean``: in an ill-conditioned row PyTorch's normalized value is
  itself off by far more than an ulp, and so is its weight gradient), ``dbias += dy``.  ATen gives each
  of its threads a share of the rows and adds the threads' sums in the end: this is its one-thread order
  (the generator's oracle); with more threads the sums differ in the last bits, within tolerance.
* **Output**: ``fma((x - mean) * rstd, weight, bias)``; ``(x - mean) * rstd * weight`` without a bias.

Measured against PyTorch 2.13 (``ATEN_CPU_CAPABILITY=avx2``, one thread): every mean, rstd, output and
gradient of thousands of random rows, N from 2 to 135, with and without ``weight``, bit for bit
(tests/ops/test_norm_order.py checks them against live PyTorch).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..autograd.fma import fma

__all__ = ["lanes", "supported", "moments", "input_grad", "param_grads"]

_MAX_VECTORS = 16  # kChunkSize: one chunk, no cascade


def lanes(dtype: np.dtype) -> int:
    """``Vectorized<T>::size()`` of AVX2: 8 float32 or 4 float64 lanes."""
    return 8 if np.dtype(dtype) == np.float32 else 4


def supported(n: int, dtype: np.dtype) -> bool:
    """Whether a row of ``n`` elements is reproduced (one chunk of whole vectors, float32 or float64)."""
    return np.dtype(dtype) in (np.float32, np.float64) and n // lanes(dtype) <= _MAX_VECTORS


def moments(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(mean, rstd) of each row of ``x`` (M, N), float32 or float64, as ATen's ``RowwiseMoments``."""
    t = x.dtype.type
    m, n_el = x.shape
    w = lanes(x.dtype)
    nv = n_el // w
    m1v = np.zeros((m, w), t)
    m2v = np.zeros((m, w), t)
    for j in range(nv):
        v = x[:, w * j:w * j + w]
        delta = v - m1v
        m1v = fma(delta, np.full_like(delta, t(1) / t(j + 1)), m1v, x.dtype)
        m2v = fma(delta, v - m1v, m2v, x.dtype)
    k = 0
    m1 = np.zeros(m, t)
    m2 = np.zeros(m, t)
    for i in range(w * nv, n_el):
        v = x[:, i]
        delta = v - m1
        k += 1
        m1 = m1 + delta / t(k)
        m2 = m2 + delta * (v - m1)
    if nv:
        for lane in range(w):
            total = k + nv
            c = t(nv) / t(total)
            delta = m1v[:, lane] - m1
            m1 = fma(np.full_like(delta, c), delta, m1, x.dtype)
            m2 = m2 + fma(delta * delta * c, np.full_like(delta, t(k)), m2v[:, lane], x.dtype)
            k = total
    var = m2 / t(n_el)
    rstd = t(1) / np.sqrt(np.maximum(var, t(0)) + t(eps))
    return m1, rstd


def _row_sum(p: np.ndarray, acc_fma: Optional[tuple] = None) -> np.ndarray:
    """map_reduce_all's sum of each row of ``p`` (M, N); ``acc_fma = (u, v)``: ``p`` is ``u * v`` rounded,
    and the last partial vector's products are fused into the lanes' sums."""
    m, n_el = p.shape
    w = lanes(p.dtype)
    if n_el < w:
        s = p[:, 0].copy()
        for j in range(1, n_el):
            s = s + p[:, j]
        return s
    acc = p[:, :w].copy()
    whole = n_el - n_el % w
    for d in range(w, whole, w):
        acc = acc + p[:, d:d + w]
    if whole < n_el:
        r = n_el - whole
        if acc_fma is None:
            acc[:, :r] = acc[:, :r] + p[:, whole:]
        else:  # (GCC fuses the product into the masked tail's sum, not into the main loop's)
            acc[:, :r] = fma(acc_fma[0][:, whole:], acc_fma[1][:, whole:], acc[:, :r], p.dtype)
    if w == 8:  # AVX2 float's vec_reduce_all: 128-bit, 64-bit, 32-bit shuffles
        acc = acc[:, :4] + acc[:, 4:]
        acc = acc[:, :2] + acc[:, 2:4]
        return acc[:, 0] + acc[:, 1]
    s = acc[:, 0].copy()  # double: the generic vec_reduce_all, one lane after another
    for j in range(1, w):
        s = s + acc[:, j]
    return s


def input_grad(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
               gamma: Optional[np.ndarray]) -> np.ndarray:
    """The input gradient (M, N) of layer_norm over rows of ``x`` (M, N), as ``layer_norm_backward_frame``;
    ``gamma`` (N,) or None, all of ``x``'s dtype."""
    t = x.dtype.type
    dt = x.dtype
    n_el = x.shape[1]
    scale = t(1) / t(n_el)
    if gamma is None:
        ds = _row_sum(dy * x, (dy, x))
        db = _row_sum(dy)
        g = dy
    else:
        gam = np.broadcast_to(gamma, x.shape)
        dyx = dy * x
        ds = _row_sum(dyx * gam, (dyx, gam))
        db = _row_sum(dy * gam, (dy, gam))
    a = rstd
    b = fma(db, mean, -ds, dt) * a * a * a * scale
    c = fma(-b, mean, -(db * a * scale), dt)
    g = a[:, None] * dy
    if gamma is not None:
        g = g * gamma
    return fma(np.broadcast_to(b[:, None], x.shape), x, g, dt) + c[:, None]


def param_grads(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray) -> tuple:
    """(weight gradient, bias gradient), each (N,), of layer_norm over rows of ``x`` (M, N), in ATen's
    one-thread order (see the module docstring)."""
    dt = x.dtype
    gw = np.zeros(x.shape[1], dt)
    gb = np.zeros(x.shape[1], dt)
    for i in range(x.shape[0]):
        a = np.full(x.shape[1], rstd[i], dt)
        gw = fma(dy[i], fma(a, x[i], np.full(x.shape[1], -rstd[i] * mean[i], dt), dt), gw, dt)
        gb = gb + dy[i]
    return gw, gb
