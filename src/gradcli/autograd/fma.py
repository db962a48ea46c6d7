"""Fused multiply-add, emulated exactly with numpy (numpy has no ``fma``).

PyTorch's CPU kernels compute several elementwise ops as one fused multiply-add, rounded once:
``add(a, b, alpha=k)`` is ``fma(b, k, a)`` (``vec::fmadd`` in the vectorized loop; GCC contracts
``a + alpha * b`` into the same instruction in the scalar loop), ``lerp`` is ``fma(w, end - self,
self)`` (``lerp_vec``), ``addcmul(a, t1, t2, value=v)`` is ``fma(v * t1, t2, a)``.  Measured against
PyTorch 2.13 (AVX2) for float32 and float64, in the vectorized part of a row, its scalar tail and
across threads (``tests/autograd/test_fma.py`` holds recorded bytes).  Two roundings
(``a + k * b`` in numpy) differ from those in about 2% of the elements, so the optimizers of
``gradcli.optim`` could not match PyTorch bit for bit without this.

* float32 (:func:`fma32`): the product of two float32 is exact in float64 and the sum is rounded once
  there; rounding that double to float32 is then correct except when it lands exactly on a float32
  midpoint (or in float32's subnormal range), where a second rounding can go the wrong way.  Those few
  elements are recomputed with round-to-odd (:func:`fma_to_f32`), which is always correct.
* float64 (:func:`fma64`): Boldo & Melquiond's error-free transformation, with an exact fallback
  through fractions where the error terms could under/overflow.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fma", "fma32", "fma64", "fma_to_f32"]

_F32 = np.float32
_F64 = np.float64
_U64 = np.uint64

_LOW29 = _U64((1 << 29) - 1)  # the float64 mantissa bits below float32's 24
_HALF29 = _U64(1 << 28)       # ... set as a float32 midpoint sets them
_F32_TINY = float(np.finfo(np.float32).tiny)


def _two_sum(a, b):
    """s = fl(a + b) and the exact error a + b - s (Knuth)."""
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s, err


_SPLITTER = 134217729.0  # 2**27 + 1


def _two_prod(a, b):
    """p = fl(a * b) and the exact error a * b - p (Dekker / Veltkamp)."""
    p = a * b
    c = _SPLITTER * a
    ah = c - (c - a)
    al = a - ah
    c = _SPLITTER * b
    bh = c - (c - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, err


def _round_to_odd(s, err):
    """Turn the round-to-nearest sum ``s`` (exact value ``s + err``) into round-to-odd."""
    s = np.array(s, dtype=_F64, copy=True)
    err = np.asarray(err, dtype=_F64)
    fix = (err != 0) & ((s.view(_U64) & _U64(1)) == 0)
    if fix.any():
        s[fix] = np.nextafter(s[fix], np.where(err[fix] > 0, np.inf, -np.inf))
    return s


def _fma64_exact_scalar(a: float, b: float, c: float) -> float:
    from fractions import Fraction  # rare path; fractions imports decimal (start-up time)

    return float(Fraction(a) * Fraction(b) + Fraction(c))


def fma64(a, b, c) -> np.ndarray:
    """Correctly rounded ``a * b + c`` in float64, elementwise, with broadcasting (a fused multiply-add).

    Boldo & Melquiond's emulation: exact product and sum, the low parts added
    with rounding to odd, one final rounding.  Elements where the error terms
    could under/overflow are recomputed exactly with fractions.
    """
    a, b, c = np.broadcast_arrays(np.asarray(a, _F64), np.asarray(b, _F64), np.asarray(c, _F64))
    with np.errstate(all="ignore"):
        uh, ul = _two_prod(a, b)
        th, tl = _two_sum(c, uh)
        v, verr = _two_sum(tl, ul)
        v = _round_to_odd(v, verr)
        res = np.asarray(th + v, dtype=_F64)
        finite_in = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        risky = finite_in & ~(
            np.isfinite(res)
            & (np.abs(a) < 2.0 ** 995) & (np.abs(b) < 2.0 ** 995)
            & ((uh == 0) | (np.abs(uh) > 2.0 ** -960))
            & ((c == 0) | (np.abs(c) > 2.0 ** -960))
        )
        naive = ~finite_in
        if naive.any():
            res = np.where(naive, a * b + c, res)
    if risky.any():
        res = np.array(res, copy=True)
        for i in zip(*np.nonzero(risky)):
            try:
                res[i] = _fma64_exact_scalar(float(a[i]), float(b[i]), float(c[i]))
            except OverflowError:
                res[i] = math.copysign(math.inf, float(a[i]) * float(b[i]) + float(c[i]))
    return res


def fma_to_f32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 ``a * b + c`` for float32-valued a, b, c (``fmaf``), always exact.

    The product is exact in float64; the sum is rounded to odd in float64, so
    that the final rounding to float32 is correct (53 >= 2 * 24 + 2).
    """
    a64 = np.asarray(a, dtype=_F32).astype(_F64)
    b64 = np.asarray(b, dtype=_F32).astype(_F64)
    c64 = np.asarray(c, dtype=_F32).astype(_F64)
    with np.errstate(all="ignore"):
        p = a64 * b64
        s, err = _two_sum(p, c64)
        finite = np.isfinite(s)
        err = np.where(finite, err, 0.0)
        s = _round_to_odd(s, err)
        return s.astype(_F32)


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 ``a * b + c`` (``fmaf``), elementwise with broadcasting; a, b, c are
    float32 arrays or numbers already rounded to float32.  Returns a new float32 array (0-d for 0-d inputs).

    Fast path: the float64 ``a * b + c`` (exact product, one rounding) rounded to float32; only the elements
    where that double is a float32 midpoint, or below float32's normal range, take the exact path."""
    with np.errstate(all="ignore"):
        s = np.asarray(np.multiply(a, b, dtype=_F64))
        s = np.add(s, c, dtype=_F64)
        s = np.asarray(s)
        out = s.astype(_F32)
        risky = (s.view(_U64) & _LOW29) == _HALF29
        risky |= (np.abs(s) < _F32_TINY) & (s != 0)
    if risky.any():
        a_, b_, c_ = np.broadcast_arrays(np.asarray(a, _F32), np.asarray(b, _F32), np.asarray(c, _F32))
        out[risky] = fma_to_f32(a_[risky], b_[risky], c_[risky])
    return out


def fma(a, b, c, dtype) -> np.ndarray:
    """``a * b + c`` rounded once in ``dtype`` (numpy float32 or float64): :func:`fma32` or :func:`fma64`.
    Inputs are cast to ``dtype`` first, as TensorIterator casts them to the op's common dtype."""
    if dtype == _F32:
        return fma32(np.asarray(a, _F32), np.asarray(b, _F32), np.asarray(c, _F32))
    return fma64(a, b, c)
