"""float32 matrix products in the order of PyTorch's BLAS: oneMKL's ``sgemm`` with its AVX2 kernels.

PyTorch 2.13's CPU ``mm`` (and everything that folds into it: ``matmul`` of 2-d and folded n-d operands)
calls ``sgemm`` of the oneMKL it is built with (2024.2; ``MKL_VERBOSE=1`` shows every call, even for a
2 x 3 @ 3 x 4 product), column-major, as ``C^T = B^T A^T``; ``addmm`` (``F.linear`` with a bias) copies
its input into the result first and calls it with beta = 1.  A float32 product rounds at every addition,
so its last bits follow the kernel's order; numpy's OpenBLAS adds in its own.  MKL's source is closed: the
order below was *measured* against PyTorch 2.13 (``ATEN_CPU_CAPABILITY=avx2``,
``MKL_ENABLE_INSTRUCTIONS=AVX2``, 2 threads as the recorders run it) by testing candidate orders element by
element until one reproduced every element of every product tried (some 1,500 random shapes up to
130 x 1200 x 130, either operand transposed; tests/ops/record_gemm.py records the regression cases).
For a row-major ``(M x K) @ (K x N)`` product:

* **The FMA kernel** (``N >= 12`` and ``M >= 4``): every element is a chain of fused multiply-adds from
  +0.0 over a block of k, the blocks' partial sums added to C in order.  The k blocks: one block up to
  192; two equal halves of the even part (and a last block of the odd k) up to 385; blocks of 192 and the
  rest above.  With beta = 1 the blocks' sums are added to the input (``addmm``'s bias) in order.  Rows
  come in groups of 4; the last ``M % 4`` rows use this kernel too when ``M >= 12``, the small kernel
  otherwise (MKL splits the rows between its 2 threads; with 1 thread they take the FMA kernel).
* **The small kernel** (``N < 12`` or ``M < 4``, and those last rows): ``acc = acc + a*b`` with the
  product rounded first (no FMA), k in order -- except the first elements of a row of C that does not
  start on a 16-byte boundary (row offset ``4*N*i mod 16 != 0``) while at least 4 elements of the row
  follow the boundary: those are summed 8 k at a time, ``s = ((((s + p0) + p1) + p2) + p3) +
  (((p4 + p5) + p6) + p7)``, then the remaining k one by one.
* **The small kernel with a transposed right operand** (PyTorch passes ``transa='T'``: ``F.linear`` to
  fewer than 12 features, the last layer of nearly every tutorial network): a dot product along k of a's
  row and the weight's row, rounded products in 4 lanes (the first ``4 * (N // 4)`` columns) or 8 (the
  others), lane 0 seeded with the products before the next 16-byte boundary of a's row (its address),
  the lanes added in halves, the last ``k % lanes`` products one by one (:func:`_dot_rows`).
* **With addmm's beta = 1** (a bias): the small kernel starts its sums from the bias; its transposed form
  adds the bias last.

* **N == 1 with a column-major left operand** (``a.t() @ g``: the weight gradient of a Linear to one
  feature, ``mm_mat2_backward``'s ``mat1.t().mm(grad)``) and **M == N == 1** with a row-major right
  operand: MKL's m == 1 path sums each element's rounded products one by one in k order from +0.0, no
  FMA (:func:`gemv_cols`; measured on 216 shapes, M 1..200, K 1..4097, both layouts of the right operand).

* **N == 1 with a transposed right operand** (``F.linear`` to one feature) and ``K <= 4``, or ``M <= 3`` and
  ``K <= 11``: each row's rounded products summed one by one in k order from +0.0, the bias added last
  (:func:`gemv_rows_small`).

Not reproduced (measured to differ; the caller uses numpy): the other ``N == 1`` products (a row-major left
operand with M >= 2 and larger K: a vectorised kernel whose order was not established), a
single row times a transposed operand (gemv), a column-major left operand in the transposed small kernel,
the last ``M % 4`` rows of an FMA-kernel product with ``M < 12`` when ``K < 19`` (MKL then runs on one
thread), and products over :data:`MAX_FMA` / :data:`MAX_SMALL`
multiply-adds (2**27: 512 x 512 x 512; above it numpy's BLAS is used and the last bits may differ).  Up to
the caps the bits were checked against PyTorch on products as large as the caps (512 x 512 x 512,
13 x 3000 x 3000, 2 x 10000 x 5000 through the small kernel).

Speed: numpy has no fused multiply-add, so the numpy chains cost 2-5 ns per multiply-add here.  The
optional compiled module ``_fmakernel`` (``_fmakernel.c``, built by setup.py where a C compiler is found)
runs the same chains with the hardware's correctly rounded ``vfmadd`` (or libm's ``fmaf``), about 25 times
faster; the caps are the same with and without it, so the results are too (tests force both paths).
``GRADCLI_PURE_NUMPY=1`` turns it off.
"""

from __future__ import annotations

import os

import numpy as np

from ..autograd.fma import fma_to_f32

try:  # the optional compiled chains (setup.py): the same bits, about 25 times faster
    from . import _fmakernel as _kernel
except ImportError:  # pragma: no cover - installs without a C compiler
    _kernel = None
if os.environ.get("GRADCLI_PURE_NUMPY"):
    _kernel = None

__all__ = ["gemv_cols", "gemv_rows_small", "k_blocks", "sgemm", "supported"]

_F32 = np.float32
_F64 = np.float64
_U64 = np.uint64
_LOW29 = _U64((1 << 29) - 1)  # float64 mantissa bits below float32's 24 ...
_HALF29 = _U64(1 << 28)       # ... as a float32 midpoint sets them
_F32_TINY = float(np.finfo(np.float32).tiny)

KC = 192  #: the FMA kernel's k block
#: multiply-adds (M*K*N) up to which each kernel is emulated; larger products go to numpy's BLAS.  The same
#: with and without the compiled chains (the bits must not depend on the install)
MAX_FMA = 1 << 27
MAX_SMALL = 1 << 27
_CHUNK = 1 << 18  # elements of the small kernel's product buffer


def k_blocks(k: int) -> list:
    """The FMA kernel's k blocks, in order (sizes summing to k)."""
    if k <= KC:
        return [k]
    if k <= 2 * KC + 1:
        even = k - k % 2
        return [even // 2, even // 2] + ([1] if k % 2 else [])
    return [KC] * (k // KC) + ([k % KC] if k % KC else [])


def _plan(m: int, k: int, n: int, b_transposed: bool):
    """(rows of the FMA kernel, whether the other rows use it too) for a supported product, else None."""
    if m == 0 or n == 0 or k == 0:
        return None
    if n == 1:
        return None
    fma_rows = (m // 4) * 4 if (n >= 12 and m >= 4) else 0
    rest_fma = fma_rows > 0 and m >= 12
    uses_small = fma_rows < m and not rest_fma
    if uses_small and ((b_transposed and m == 1) or (fma_rows and k < 19)):
        return None
    fma_rows = m if rest_fma else fma_rows
    if fma_rows * k * n > MAX_FMA or (m - fma_rows) * k * n > MAX_SMALL:
        return None
    return fma_rows


def supported(m: int, k: int, n: int, b_transposed: bool = False) -> bool:
    """Does :func:`sgemm` reproduce MKL's bits for an (m x k) @ (k x n) product?"""
    return _plan(m, k, n, b_transposed) is not None


def _blocks(a: np.ndarray, b: np.ndarray):
    """The k blocks side by side, each padded in front with zero products (fmaf(0, 0, +0) = +0):
    float64 (blocks, m, width) and (blocks, width, n)."""
    m, k = a.shape
    n = b.shape[1]
    sizes = k_blocks(k)
    nb, width = len(sizes), max(sizes)
    a3 = np.zeros((nb, m, width), _F64)
    b3 = np.zeros((nb, width, n), _F64)
    k0 = 0
    for i, s in enumerate(sizes):
        a3[i, :, width - s:] = a[:, k0:k0 + s]
        b3[i, width - s:, :] = b[k0:k0 + s]
        k0 += s
    return a3, b3


def _fma_rows(a: np.ndarray, b: np.ndarray, c=None) -> np.ndarray:
    """The FMA kernel: per k block a chain of fmaf from +0.0, the block sums added in order (compiled
    when the optional module is built, else numpy's emulation: the same bits)."""
    if _kernel is not None:
        return _compiled_rows(a, b, c)
    return _numpy_rows(a, b, c)


def _sum_blocks(acc32: np.ndarray, c=None) -> np.ndarray:
    """The k blocks' sums (blocks, m, n) added in order to +0.0 or to addmm's input c (float32)."""
    out = acc32[0] + (_F32(0) if c is None else c)
    for i in range(1, len(acc32)):
        out = out + acc32[i]
    return out


def _compiled_rows(a: np.ndarray, b: np.ndarray, c=None) -> np.ndarray:
    """:func:`_fma_rows` by the compiled chains of ``_fmakernel.c`` (correctly rounded fmaf, the same bits)."""
    m, k = a.shape
    n = b.shape[1]
    sizes = np.array(k_blocks(k), np.int64)
    acc32 = np.empty((len(sizes), m, n), _F32)
    _kernel.fma_chains(np.ascontiguousarray(a, _F32), np.ascontiguousarray(b, _F32), sizes, acc32, m, k, n)
    return _sum_blocks(acc32, c)


def _numpy_rows(a: np.ndarray, b: np.ndarray, c=None) -> np.ndarray:
    """The FMA kernel's chains with numpy: each step the float64 ``a*b + acc`` (exact product, one
    rounding) rounded to float32, and a step whose double is a float32 midpoint (or tiny), where that second
    rounding can go the wrong way, recomputed exactly (fma_to_f32)."""
    a3, b3 = _blocks(a, b)
    nb, m, width = a3.shape
    n = b3.shape[2]
    acc = np.zeros((nb, m, n), _F64)
    acc32 = np.zeros((nb, m, n), _F32)
    t = np.empty((nb, m, n), _F64)
    tv = t.view(_U64)
    bits = np.empty((nb, m, n), _U64)
    mid = np.empty((nb, m, n), bool)
    # A result below float32's normal range can be rounded twice wrongly too; it cannot occur when every
    # nonzero operand lies in [2**-40, 2**40]: every partial sum is then a multiple of 2**-126.
    tiny = not (_in_range(a) and _in_range(b))
    with np.errstate(all="ignore"):
        for j in range(width):
            aj, bj = a3[:, :, j, None], b3[:, None, j, :]
            np.multiply(aj, bj, out=t)  # exact in float64
            np.add(t, acc, out=t)  # one rounding in float64 ...
            acc32[...] = t  # ... and one to float32: right unless the double is a float32 midpoint (or tiny)
            np.bitwise_and(tv, _LOW29, out=bits)
            np.equal(bits, _HALF29, out=mid)
            if tiny:
                mid |= (np.abs(t) < _F32_TINY) & (t != 0)
            if mid.any():
                acc32[mid] = fma_to_f32(np.broadcast_to(aj, t.shape)[mid], np.broadcast_to(bj, t.shape)[mid],
                                        acc[mid])
            acc[...] = acc32
    return _sum_blocks(acc32, c)


def _in_range(x: np.ndarray) -> bool:
    """Every nonzero |x| in [2**-40, 2**40] (so no partial sum of products of such values is tiny)."""
    ax = np.abs(x)
    big = float(ax.max(initial=0.0))
    if big > 2.0 ** 40 or not np.isfinite(big):
        return False
    nz = ax[ax != 0]
    return nz.size == 0 or float(nz.min()) >= 2.0 ** -40


def _small_rows(a: np.ndarray, b: np.ndarray, row0: int, n_row: int, c=None) -> np.ndarray:
    """The small kernel for the rows of a (row0 is their first row's index in C, whose rows are n_row long).
    With addmm's c (float32, (rows, n)), beta = 1: every sum starts from c instead of +0.0 (measured)."""
    m, k = a.shape
    n = b.shape[1]
    # the products (k, rows, cols) with the longer side innermost (numpy's broadcasting loops); n >= 2, so
    # numpy's reduce of axis 0 below adds element by element in order (a single column would go pairwise)
    wide = m >= n
    x, y = (np.ascontiguousarray(b), np.ascontiguousarray(a.T)) if wide else \
        (np.ascontiguousarray(a.T), np.ascontiguousarray(b))
    if c is None:
        acc = np.zeros((x.shape[1], y.shape[1]), _F32)
    else:
        acc = np.array(c.T if wide else c, _F32)
    step = max(1, _CHUNK // (m * n))
    for k0 in range(0, k, step):
        k1 = min(k, k0 + step)
        prods = x[k0:k1, :, None] * y[k0:k1, None, :]  # rounded to float32
        prods[0] += acc  # the running sum first (from +0.0), then the products in order
        acc = np.add.reduce(prods, axis=0)
    out = np.ascontiguousarray(acc.T if wide else acc)
    rows = np.arange(row0, row0 + m)
    off = (4 * n_row * rows) % 16
    peel = ((16 - off) % 16) // 4
    peel = np.where(n_row - peel >= 4, peel, 0)
    if peel.any():
        ii, jj = np.nonzero(np.arange(n)[None, :] < peel[:, None])
        out[ii, jj] = _chain8((a[ii] * b[:, jj].T).astype(_F32), None if c is None else c[ii, jj])
    return out


def _chain8(p: np.ndarray, s0=None) -> np.ndarray:
    """Rows of products p (E x k) summed 8 k at a time: s = (s + p0 + p1 + p2 + p3) + (p4 + p5 + p6 + p7),
    from +0.0 or from s0 (E,)."""
    e, k = p.shape
    nb = k // 8
    s = np.zeros(e, _F32) if s0 is None else np.array(s0, _F32)
    if nb:
        blk = p[:, :nb * 8].reshape(e, nb, 8)
        y = blk[:, :, 4] + _F32(0)
        for q in (5, 6, 7):
            y = y + blk[:, :, q]
        for i in range(nb):
            x = s
            for q in range(4):
                x = x + blk[:, i, q]
            s = x + y[:, i]
    for j in range(nb * 8, k):
        s = s + p[:, j]
    return s


def _row_offsets(a: np.ndarray, m: int, k: int):
    """Byte offsets mod 16 of a's rows as MKL sees them: a row-major a (PyTorch hands it over as it is) from
    its address; any other layout but column-major is first copied by PyTorch into fresh, aligned memory;
    column-major (MKL's transposed operand): None, another kernel."""
    s0, s1 = a.strides
    if s1 == a.itemsize and s0 >= a.itemsize * max(1, k):
        return (a.ctypes.data + s0 * np.arange(m, dtype=np.int64)) % 16
    if s0 == a.itemsize and s1 >= a.itemsize * max(1, m):
        return None
    return (4 * k * np.arange(m, dtype=np.int64)) % 16


def _dot_rows(a: np.ndarray, w: np.ndarray, offsets: np.ndarray, c=None) -> np.ndarray:
    """The small kernel with a transposed right operand: ``a @ w.T`` for a (m x k) and a row-major w (n x k),
    as measured against PyTorch 2.13 (the ``F.linear`` to fewer than 12 features of nearly every tutorial
    network).  Each element is a dot product along k of a's row and w's row with rounded products (no FMA):
    the first q products, q the elements before the next 16-byte boundary of a's row (``offsets``: the rows'
    addresses mod 16), summed in order from +0.0, seed lane 0 of L lane sums that take the next products L at
    a time (L = 4 for the first 4 * (n // 4) columns, 8 for the others); the lanes are then added in halves
    ((l0 + l2) + (l1 + l3) for 4), the last products one by one; addmm's c (float32, (m, n)) is added last."""
    m, k = a.shape
    n = w.shape[0]
    out = np.empty((m, n), _F32)
    q_of_row = ((16 - offsets) % 16) // 4
    split = 4 * (n // 4)
    for q in range(4):
        rows = np.nonzero(q_of_row == q)[0]
        for lo, hi, lanes in ((0, split, 4), (split, n, 8)):
            if not rows.size or lo == hi:
                continue
            step = max(1, _CHUNK // ((hi - lo) * k))
            for r0 in range(0, rows.size, step):
                rr = rows[r0:r0 + step]
                out[np.ix_(rr, np.arange(lo, hi))] = _dot_lanes(a[rr], w[lo:hi], min(q, k), lanes)
    if c is not None:
        out = out + c
    return out


def _dot_lanes(a: np.ndarray, w: np.ndarray, q: int, lanes: int) -> np.ndarray:
    """:func:`_dot_rows` for rows of a that share q, and columns that share the lane count."""
    p = a[:, None, :] * w[None, :, :]  # (rows, cols, k), rounded to float32
    r, nc, k = p.shape
    s0 = np.zeros((r, nc), _F32)
    for j in range(q):
        s0 = s0 + p[:, :, j]
    nb = (k - q) // lanes
    # the lane sums in order over the blocks: numpy's reduce over the outer axis of a fresh array
    stack = np.zeros((nb + 1, r, nc, lanes), _F32)
    stack[0, :, :, 0] = s0
    stack[1:] = np.moveaxis(p[:, :, q:q + nb * lanes].reshape(r, nc, nb, lanes), 2, 0)
    acc = np.add.reduce(stack, axis=0)
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = acc[..., :h] + acc[..., h:]
    s = acc[..., 0]
    for j in range(q + nb * lanes, k):
        s = s + p[:, :, j]
    return s


def _column_major(a: np.ndarray) -> bool:
    """ATen's test for handing a row-major (m x k) left operand to BLAS transposed: strides (1, >= m)."""
    s0, s1 = (x // a.itemsize for x in a.strides)
    return s0 == 1 and s1 >= max(1, a.shape[0])


def gemv_cols(a: np.ndarray, b: np.ndarray, b_transposed: bool = False):
    """``a @ b`` for an N == 1 float32 product in MKL's m == 1 order (see the module docstring), or None when
    that order does not apply: each element is ``((0 + p0) + p1) + ...`` with the products rounded first.
    ``np.add.accumulate`` adds strictly left to right in float32 (no pairwise blocks), and adding +0.0 last
    is the sum's start from +0.0 (an all -0.0 sum is +0.0)."""
    m, k = a.shape
    if b.shape[1] != 1 or m == 0 or k == 0 or m * k > MAX_SMALL:
        return None
    if not ((m >= 2 and _column_major(a)) or (m == 1 and not b_transposed)):
        return None
    p = np.multiply(a, np.asarray(b, _F32).reshape(1, k), dtype=_F32)
    return (np.add.accumulate(p, axis=1, dtype=_F32)[:, -1:] + _F32(0.0)).astype(_F32, copy=False)


def gemv_rows_small(a: np.ndarray, b: np.ndarray, b_transposed: bool, c=None):
    """``c + a @ b`` for ``F.linear`` to one feature (a row-major (m x k) ``a``, ``b`` the transpose of a
    (1 x k) weight) where MKL sums each row's rounded products one by one in k order from +0.0 and adds the
    bias last: m <= 3 with k <= 11, or any m with k <= 4 (measured against PyTorch 2.13, AVX2, m 1..2000,
    k 1..15; other sizes run a vectorised kernel whose order was not established: None)."""
    m, k = a.shape
    if not (b_transposed and b.shape[1] == 1 and m and k and a.flags.c_contiguous
            and ((m <= 3 and k <= 11) or k <= 4)):
        return None
    p = np.multiply(a, np.asarray(b, _F32).reshape(1, k), dtype=_F32)
    out = (np.add.accumulate(p, axis=1, dtype=_F32)[:, -1:] + _F32(0.0)).astype(_F32, copy=False)
    if c is not None:
        out = (out + np.broadcast_to(np.asarray(c, _F32), (m, 1))).astype(_F32, copy=False)
    return out


def sgemm(a: np.ndarray, b: np.ndarray, b_transposed: bool = False, c=None):
    """``a @ b`` for float32 matrices (m x k) and (k x n) with MKL's bits, or None when :func:`supported`
    is False (the caller computes it with numpy).  ``b_transposed``: b is the transpose of a row-major
    matrix (PyTorch's strides test), which changes the small kernel.

    ``c`` (float32, broadcast to (m x n)): ``c + a @ b`` as ``addmm(c, a, b)`` with beta = alpha = 1, for
    which PyTorch copies c into the result and calls sgemm with beta = 1: the FMA kernel adds its k blocks'
    sums to c in order, the small kernel starts its sums from c, its transposed form adds c last (measured
    with F.linear and addmm)."""
    m, k = a.shape
    n = b.shape[1]
    if n == 1:
        small = gemv_rows_small(a, b, b_transposed, c)
        if small is not None or c is not None:
            return small
        return gemv_cols(a, b, b_transposed)
    fma_rows = _plan(m, k, n, b_transposed)
    if fma_rows is None:
        return None
    offsets = None
    if fma_rows < m and b_transposed:
        offsets = _row_offsets(a, m, k)
        if offsets is None:
            return None
    a = np.asarray(a, _F32)
    c0 = None if c is None else np.broadcast_to(np.asarray(c, _F32), (m, n))
    out = np.empty((m, n), _F32)
    if fma_rows < m and b_transposed:
        out[fma_rows:] = _dot_rows(a[fma_rows:], np.ascontiguousarray(b.T, _F32), offsets[fma_rows:],
                                   None if c0 is None else c0[fma_rows:])
    b = np.ascontiguousarray(b, _F32)
    if fma_rows:
        cf = None if c0 is None else c0[:fma_rows]
        if fma_rows > n:  # the same chains for C^T = B^T A^T, with the longer side innermost (numpy's loops)
            out[:fma_rows] = _fma_rows(np.ascontiguousarray(b.T), a[:fma_rows].T, None if cf is None else cf.T).T
        else:
            out[:fma_rows] = _fma_rows(a[:fma_rows], b, cf)
    if fma_rows < m and not b_transposed:
        out[fma_rows:] = _small_rows(a[fma_rows:], b, fma_rows, n, None if c0 is None else c0[fma_rows:])
    return out
