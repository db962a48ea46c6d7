"""float32 ``batch_norm`` in the order of ATen's CPU kernels (native/cpu/batch_norm_kernel.cpp,
native/Normalization.cpp), AVX2, one thread.

A channel whose values barely differ across the batch (a Linear of a Sigmoid's output over six rows) makes
batch_norm ill-conditioned: ``invstd`` is large and both the input gradient and the weight gradient come
from sums that cancel, so their float32 values depend on how the kernel rounds, past SPEC 1's tolerance
(the program generator found one: PyTorch 0.0034184 for the weight gradient of the Linear before a
BatchNorm1d, gradcli's float64 formulas 0.0034196).  These functions compute what the kernels compute for a
contiguous float32 ``(N, C, *)`` input viewed as ``(N, C, S)`` (``S`` the product of the dims after the
channel), with one thread (the oracle's ``torch.set_num_threads(1)``; more threads split the channels-last
sums below among them, which changes their last bits, within tolerance).  ``T`` is float32, ``acc``
(``acc_type<float, false>``) double; "fused" is one fma, as GCC contracts the kernels' vector expressions.

ATen has two layouts: ``S > 1`` is its *contiguous* kernel (a channel is a run of ``S`` values in each batch
row), ``S == 1`` (a 2-D input, ``(N, C, 1)``) its *channels-last* kernel (vectorized across the channels of a
row, 8 lanes, the last ``C % 8`` channels in a scalar tail).

* **Statistics** (:func:`collect_stats`, ``batch_norm_cpu_collect_stats_{contiguous,channels_last}_impl``):
  contiguous: ``sum`` in acc over the channel's values in (n, s) order, ``mean = T(sum / N)``, ``var_sum``
  in acc of ``T((x - mean) * (x - mean))`` in that order, stored as T.  Channels-last: a T buffer summed over
  the rows one after another, ``mean = T(acc(buf) / N)``, then ``buf = fma(x - mean, x - mean, buf)``.
* **Saved and running statistics** (:func:`update_stats`, ``batch_norm_cpu_update_stats_template``):
  ``save_invstd = T(1 / sqrt(acc(var_sum / T(n)) + eps))``, then in T (``m = T(momentum)``):
  ``running_mean = m * mean + (1 - m) * running_mean``, ``running_var = fma(m, var_sum / T(n - 1), (1 - m)
  * running_var)``.
* **Output** (:func:`transform`, ``batch_norm_cpu_collect_linear_and_constant_terms``): per channel ``alpha
  = invstd * weight``, ``beta = fma(-mean, alpha, bias)``, ``y = fma(x, alpha, beta)``; evaluation mode's
  ``invstd`` is ``1 / sqrt(running_var + T(eps))`` in T (:func:`eval_invstd`).
* **Backward** (:func:`backward`, ``batch_norm_cpu_backward_{contiguous,channels_last}_impl``): contiguous:
  per channel and batch row, ``vec::reduce_all`` of ``dy`` and ``vec::map2_reduce_all`` of ``(x - mean) *
  dy`` over the row's ``S`` values (:func:`.norm_order._row_sum`: lane-wise, the last partial vector's
  products fused, the lanes reduced pairwise), each added to an acc ``sum`` / ``dotp``; ``k = T(dotp) *
  invstd * invstd / T(N)``, ``grad_mean = T(sum / N)``, ``dx = fma(-(x - mean), k, dy - grad_mean) * invstd *
  w``, ``grad_weight = T(dotp * invstd)``, ``grad_bias = T(sum)``.  Channels-last: T buffers, ``sum = sum +
  dy`` and ``dotp = fma(x - mean, dy, dotp)`` over the rows one after another, ``k = dotp * invstd * invstd
  / T(N)``, ``grad_mean = sum / T(N)``, ``dx`` as above in the vectorized channels and ``(dy - grad_mean) -
  (x - mean) * k`` (not fused) in the scalar tail, ``grad_weight = dotp * invstd``.  Evaluation mode:
  ``invstd = T(1 / sqrt(acc(running_var) + eps))`` (in double, unlike the forward's), ``dx = dy * invstd *
  w``, the sums with the running mean.  A grad_output that is not contiguous (the expanded gradient of
  ``out.sum().backward()``) takes ``batch_norm_backward_cpu_template``'s strided path
  (:func:`_backward_strided`).

Measured against PyTorch 2.13 (``ATEN_CPU_CAPABILITY=avx2``, one thread): saved mean and invstd, running
statistics, output and every gradient of random ``(N, C)``, ``(N, C, L)`` and ``(N, C, H, W)`` inputs, half
of the channels ill-conditioned, with and without weight and bias, training and evaluation, random momentum
and eps, bit for bit (tests/ops/test_batch_norm_order.py checks them against live PyTorch).  float64 is not
reproduced (:func:`supported`).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..autograd.fma import fma
from .norm_order import _row_sum, lanes

__all__ = ["supported", "collect_stats", "update_stats", "eval_invstd", "transform", "backward"]


def supported(dtype: np.dtype) -> bool:
    """Whether batch_norm of this dtype is reproduced: float32.  float64's kernels add differently (its
    contiguous ``var_sum`` and its running variance differ in the last bits from these formulas, measured),
    so the caller keeps its float64 formulas there, far within SPEC 1's float64 tolerance."""
    return np.dtype(dtype) == np.float32


def _seq_sum(v: np.ndarray) -> np.ndarray:
    """Sum of each row of ``v`` (C, M) one element after another, in v's dtype (numpy's ``sum`` is
    pairwise; ``cumsum`` adds in order)."""
    if v.shape[1] == 0:
        return np.zeros(v.shape[0], v.dtype)
    return np.cumsum(v, axis=1)[:, -1]


def collect_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, var_sum), each (C,) of x's dtype, of a contiguous ``x`` (N, C, S), as
    ``batch_norm_cpu_collect_stats_kernel`` with one thread (see the module docstring)."""
    n_b, c, s = x.shape
    n = n_b * s
    if s > 1:
        rows = np.ascontiguousarray(x.transpose(1, 0, 2)).reshape(c, n)
        mean = (_seq_sum(rows.astype(np.float64)) / n).astype(x.dtype)
        d = rows - mean[:, None]
        var_sum = _seq_sum((d * d).astype(np.float64)).astype(x.dtype)
        return mean, var_sum
    rows = x[:, :, 0]  # (N, C): the buffer row of the one thread, vectorized across channels
    buf = np.cumsum(rows, axis=0)[-1] + x.dtype.type(0)  # (row after row from +0.0; cumsum adds in order)
    mean = (buf.astype(np.float64) / n).astype(x.dtype)
    buf = np.zeros(c, x.dtype)
    for i in range(n_b):
        d = rows[i] - mean
        buf = fma(d, d, buf, x.dtype)
    return mean, buf.astype(np.float64).astype(x.dtype)


def update_stats(mean: np.ndarray, var_sum: np.ndarray, n: int, eps: float, momentum: float,
                 running_mean: Optional[np.ndarray], running_var: Optional[np.ndarray]) -> np.ndarray:
    """``save_invstd`` (C,) from the collected statistics; ``running_mean`` / ``running_var`` (C,) updated
    in place where given, as ``batch_norm_cpu_update_stats_template`` (see the module docstring)."""
    dt = var_sum.dtype
    t = dt.type
    var = (var_sum / t(n)).astype(np.float64)
    with np.errstate(divide="ignore"):
        invstd = np.where((var != 0) | (eps != 0), 1.0 / np.sqrt(var + eps), 0.0).astype(dt)
    m = t(momentum)
    if running_mean is not None:
        new = m * mean + (t(1) - m) * running_mean
        np.copyto(running_mean, new.reshape(running_mean.shape).astype(running_mean.dtype))
    if running_var is not None:
        unbiased = var_sum / t(n - 1)
        new = fma(np.full(unbiased.shape, m), unbiased, (t(1) - m) * running_var, dt)
        np.copyto(running_var, new.reshape(running_var.shape).astype(running_var.dtype))
    return invstd


def eval_invstd(running_var: np.ndarray, eps: float) -> np.ndarray:
    """Evaluation mode's forward ``invstd = 1 / sqrt(running_var + T(eps))`` in T (C,)."""
    t = running_var.dtype.type
    with np.errstate(divide="ignore"):
        return (t(1) / np.sqrt(running_var + t(eps))).astype(running_var.dtype)


def transform(x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, weight: Optional[np.ndarray],
              bias: Optional[np.ndarray]) -> np.ndarray:
    """The output (N, C, S) of ``x`` (N, C, S), each per-channel argument (C,) of x's dtype: ``fma(x, alpha,
    beta)`` with ``alpha = invstd * weight``, ``beta = fma(-mean, alpha, bias)``."""
    dt = x.dtype
    alpha = invstd if weight is None else (invstd * weight).astype(dt)
    beta = fma(-mean, alpha, np.zeros_like(alpha) if bias is None else bias, dt)
    return fma(x, alpha[None, :, None], np.broadcast_to(beta[None, :, None], x.shape), dt)


def _backward_terms(x: np.ndarray, mean: np.ndarray, invstd_saved: Optional[np.ndarray],
                    weight: Optional[np.ndarray], training: bool, running_var: Optional[np.ndarray],
                    eps: float) -> tuple:
    """(invstd (C,), weight or ones (C,), x - mean (N, C, S)) in x's dtype, for both backward paths: the saved
    invstd in training, else ``1 / sqrt(running_var + eps)`` in double rounded once (ATen's evaluation mode)."""
    dt = x.dtype
    if training:
        invstd = invstd_saved
    else:
        with np.errstate(divide="ignore"):
            invstd = (1.0 / np.sqrt(running_var.astype(np.float64) + eps)).astype(dt)
    w = np.ones(x.shape[1], dt) if weight is None else weight.astype(dt)
    return invstd, w, x - mean[None, :, None]


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, invstd_saved: Optional[np.ndarray],
             weight: Optional[np.ndarray], training: bool, running_var: Optional[np.ndarray], eps: float,
             needs: tuple, dy_contiguous: bool = True) -> tuple:
    """(grad_input (N, C, S) or None, grad_weight (C,) or None, grad_bias (C,) or None) of
    ``batch_norm_cpu_backward_kernel`` (see the module docstring): ``x`` contiguous (N, C, S), ``dy`` (N, C,
    S) with ``dy_contiguous`` telling whether PyTorch's grad_output is contiguous (a ``sum()``'s expanded
    gradient is not: then :func:`_backward_strided`); ``mean`` the saved mean (training) or the running mean
    (evaluation); ``invstd_saved`` the saved invstd (training) or None (evaluation: from ``running_var``)."""
    if not dy_contiguous:
        return _backward_strided(dy, x, mean, invstd_saved, weight, training, running_var, eps, needs)
    dt = x.dtype
    t = dt.type
    n_b, c, s = x.shape
    n = n_b * s
    invstd, w, xm = _backward_terms(x, mean, invstd_saved, weight, training, running_var, eps)
    if s > 1:
        sum_ = np.zeros(c, np.float64)
        dotp = np.zeros(c, np.float64)
        for i in range(n_b):
            xmi = np.ascontiguousarray(xm[i])
            dyi = np.ascontiguousarray(dy[i])
            sum_ = sum_ + _row_sum(dyi).astype(np.float64)
            dotp = dotp + _row_sum(xmi * dyi, (xmi, dyi)).astype(np.float64)
        k = (dotp.astype(dt) * invstd * invstd / t(n)).astype(dt)
        grad_mean = (sum_ / n).astype(dt)
        gw = (dotp * invstd.astype(np.float64)).astype(dt)
        gb = sum_.astype(dt)
    else:
        sb = np.cumsum(dy[:, :, 0], axis=0)[-1] + t(0)  # (+0.0: the buffer starts from zeros)
        db = np.zeros(c, dt)
        for i in range(n_b):
            db = fma(xm[i, :, 0], dy[i, :, 0], db, dt)
        k = db * invstd * invstd / t(n)
        grad_mean = sb / t(n)
        gw = db * invstd
        gb = sb
    gx = None
    if needs[0]:
        if training:
            kb = np.broadcast_to(k[None, :, None], x.shape)
            centred = dy - grad_mean[None, :, None]
            gx = fma(-xm, kb, centred, dt)
            if s == 1:  # the channels-last kernel's scalar tail (channels past the last whole vector): not fused
                tail = c - c % lanes(dt)
                gx[:, tail:] = centred[:, tail:] - xm[:, tail:] * kb[:, tail:]
            gx = gx * invstd[None, :, None] * w[None, :, None]
        else:
            gx = dy * invstd[None, :, None] * w[None, :, None]
        gx = gx.astype(dt)
    return gx, (gw if needs[1] else None), (gb if needs[2] else None)


def _backward_strided(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, invstd_saved: Optional[np.ndarray],
                      weight: Optional[np.ndarray], training: bool, running_var: Optional[np.ndarray], eps: float,
                      needs: tuple) -> tuple:
    """``batch_norm_backward_cpu_template``'s path for a grad_output that is not contiguous: ``sum =
    at::sum(grad_out)`` per channel, ``dotp`` in acc of ``T((x - mean) * dy)`` (cpu_serial_kernel), ``k =
    T(dotp) * invstd * invstd / n``, ``gi = (x - mean) * k`` stored, then ``dx = (dy - sum / n - gi) *
    invstd * w``, all in T and not fused (separate kernels); ``grad_weight = T(dotp * invstd)``, ``grad_bias
    = sum``.  The sum is taken in double and rounded once: ATen's reduction order for a strided tensor is not
    reproduced, which changes nothing where it is exact (the expanded ones of ``out.sum().backward()``)."""
    dt = x.dtype
    t = dt.type
    n_b, c, s = x.shape
    n = n_b * s
    invstd, w, xm = _backward_terms(x, mean, invstd_saved, weight, training, running_var, eps)
    rows = lambda a: np.ascontiguousarray(a.transpose(1, 0, 2)).reshape(c, n)  # noqa: E731
    sum_ = _seq_sum(rows(dy).astype(np.float64)).astype(dt)
    dotp = _seq_sum(rows((xm * dy).astype(dt)).astype(np.float64))
    gx = None
    if needs[0]:
        if training:
            k = dotp.astype(dt) * invstd * invstd / t(n)
            gi = (xm * k[None, :, None]).astype(dt)
            gx = (dy - (sum_ / t(n))[None, :, None] - gi) * invstd[None, :, None] * w[None, :, None]
        else:
            gx = dy * invstd[None, :, None] * w[None, :, None]
        gx = gx.astype(dt)
    gw = (dotp * invstd.astype(np.float64)).astype(dt)
    return gx, (gw if needs[1] else None), (sum_ if needs[2] else None)
