"""Two-thread evaluation of large elementwise numpy calls and matrix products.

PyTorch's CPU kernels split an elementwise op over the machine's cores (at::parallel_for, grain 32768);
numpy runs on one.  numpy releases the GIL inside its loops, so a large call can be cut in two halves of
the flat (C-contiguous) output and the second half computed on another thread: every element is computed
by the same loop on the same inputs, so the values are the ones a single call gives.

Matrix products: OpenBLAS runs on one thread in a gradcli process (:mod:`gradcli.host`: its own threading
follows the machine's core count, and the bits of a product follow the threading), so :func:`matmul` splits a
large product's rows in two halves itself.  The split depends only on the shapes, never on the machine, so a
product has the same bits on every host (not always the bits of one unsplit call: OpenBLAS's float32 kernels
round a block of rows differently from the whole).  Always two threads, whatever the core count, for the same
reason.
"""

from __future__ import annotations

import contextvars
import threading

import numpy as np

#: elements from which a call is split (below, a thread's start-up is not worth it)
PARALLEL_MIN = 1 << 20


def _flat_operand(x, shape: tuple):
    """x as a flat array matching the output's elements, or a scalar (also for one element broadcast to every
    position, as numpy's scalar of x's dtype: the same values and result dtype); None when it cannot be split."""
    if type(x) is not np.ndarray:
        return x  # a Python/numpy scalar
    if x.ndim == 0:
        return x
    if x.shape != shape:
        return None
    if not x.flags.c_contiguous:
        if x.size and not any(x.strides):
            return x[(0,) * x.ndim]  # one element broadcast to the shape (a sum's gradient): that element
        return None
    return x.reshape(-1)


def _large(x) -> bool:
    return type(x) is np.ndarray and x.size >= PARALLEL_MIN


def _piece(x, lo: int, hi: int):
    """Elements lo..hi of a flat operand; a scalar or 0-d operand as it is."""
    return x[lo:hi] if type(x) is np.ndarray and x.ndim else x


def binary(npfn, a, b, dtype=None):
    """``npfn(a, b[, dtype=dtype])``: on two threads when ``npfn`` is a ufunc, the result has at least
    ``PARALLEL_MIN`` elements and both operands are C-contiguous arrays of the result's shape, 0-d arrays or
    scalars; else one plain call.  Raises what the plain call raises (ValueError on shapes that do not
    broadcast)."""
    if not (type(a) is np.ndarray and a.size >= PARALLEL_MIN or type(b) is np.ndarray and b.size >= PARALLEL_MIN):
        return npfn(a, b) if dtype is None else npfn(a, b, dtype=dtype)  # (the common case, inline: a hot path)
    kw = {} if dtype is None else {"dtype": dtype}
    if type(npfn) is not np.ufunc:
        return npfn(a, b, **kw)
    shape = a.shape if _large(a) and (not _large(b) or a.size >= b.size) else b.shape
    fa, fb = _flat_operand(a, shape), _flat_operand(b, shape)
    if fa is None or fb is None:
        return npfn(a, b, **kw)
    # the result dtype of the whole call, from a one-element probe with the same operand kinds
    out = np.empty(shape, dtype=np.asarray(npfn(_piece(fa, 0, 1), _piece(fb, 0, 1), **kw)).dtype)
    flat = out.reshape(-1)
    run(lambda lo, hi: npfn(_piece(fa, lo, hi), _piece(fb, lo, hi), out=flat[lo:hi], **kw), flat.size)
    return out


def unary(npfn, a):
    """``npfn(a)`` for a ufunc ``npfn`` (any other callable: one plain call), on two threads when ``a`` is a
    C-contiguous array of at least ``PARALLEL_MIN`` elements."""
    if not (type(a) is np.ndarray and a.size >= PARALLEL_MIN) or type(npfn) is not np.ufunc \
            or not a.flags.c_contiguous:
        return npfn(a)
    fa = a.reshape(-1)
    out = np.empty(a.shape, dtype=np.asarray(npfn(fa[:1])).dtype)
    flat = out.reshape(-1)
    run(lambda lo, hi: npfn(fa[lo:hi], out=flat[lo:hi]), a.size)
    return out


#: multiply-adds (m * k * n) from which a product is split over two threads
MATMUL_PARALLEL_MIN = 1 << 22


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.matmul(a, b)``, the rows of the result (axis -2) in two halves on two threads when ``a`` has at
    least 2 rows and the product at least ``MATMUL_PARALLEL_MIN`` multiply-adds; else one call.  Raises what
    ``np.matmul`` raises (ValueError on shapes that do not match)."""
    if a.ndim < 2 or b.ndim < 1 or a.shape[-2] < 2:
        return np.matmul(a, b)
    m, k = a.shape[-2], a.shape[-1]
    n = b.shape[-1] if b.ndim >= 2 else 1
    batch = 1
    for d in a.shape[:-2]:
        batch *= d
    if batch * m * k * n < MATMUL_PARALLEL_MIN or (b.ndim >= 2 and b.shape[-2] != k) or (b.ndim == 1 and b.shape[0] != k):
        return np.matmul(a, b)
    if b.ndim == 1:  # matrix @ vector: the result's last axis is a's rows
        out = np.empty(a.shape[:-1], dtype=np.result_type(a, b))
        run(lambda lo, hi: np.matmul(a[..., lo:hi, :], b, out=out[..., lo:hi]), m)
        return out
    try:
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (m, n)
    except ValueError:
        return np.matmul(a, b)  # numpy's own error
    out = np.empty(shape, dtype=np.result_type(a, b))
    run(lambda lo, hi: np.matmul(a[..., lo:hi, :], b, out=out[..., lo:hi, :]), m)
    return out


def row_blocks(rows: int, block_rows: int, fn, parallel: bool) -> None:
    """Call ``fn(r0, r1)`` for consecutive blocks of at most ``block_rows`` of ``range(rows)``; the blocks
    are shared between two threads when ``parallel`` (each block is computed alike on either thread)."""
    def part(lo: int, hi: int) -> None:
        for r0 in range(lo, hi, block_rows):
            fn(r0, min(hi, r0 + block_rows))

    if parallel and rows > 1:
        run(part, rows)
    else:
        part(0, rows)


def run(part, size: int) -> None:
    """Call ``part(lo, hi)`` for the two halves of ``range(size)``, the second on another thread in a copy of
    the caller's context (numpy's errstate lives there); an exception of either half is raised here (the first
    half's first)."""
    half = size // 2
    failed: list = []
    ctx = contextvars.copy_context()

    def second():
        try:
            ctx.run(part, half, size)
        except BaseException as exc:  # re-raised below, on the caller's thread
            failed.append(exc)

    t = threading.Thread(target=second, daemon=True)
    t.start()
    try:
        part(0, half)
    finally:
        t.join()
    if failed:
        raise failed[0]
