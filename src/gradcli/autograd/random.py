"""Random numbers that reproduce PyTorch's CPU streams bit for bit.

After ``manual_seed(n)`` the values of ``randn``, ``rand``, ``randint``,
``normal_`` and ``uniform_`` are exactly the ones PyTorch 2.13 computes on a CPU
(an x86-64 build, the reference platform of SPEC §1), for every size, dtype and
sequence of calls, and each call consumes exactly as many words of the stream.
The algorithms follow PyTorch's own sources:

* ``aten/src/ATen/core/MT19937RNGEngine.h`` -- the 32-bit Mersenne Twister
  (``init_with_uint32``: only the low 32 bits of the seed reach the state;
  ``next_state`` twist; tempering).  :class:`_PureMT19937` is a numpy version
  whose twist runs in three vectorised slices of 227/227/169 words plus the
  last word, with vectorised tempering; the hot path hands the very same state
  to numpy's ``numpy.random.MT19937`` (public ``state`` / ``random_raw``),
  which runs the standard algorithm in C, an order of magnitude faster.  Both produce
  the same words (checked at import and by the tests).  The float32 normal kernel,
  which only needs each word's low 24 bits, draws them through the legacy
  ``RandomState.randint(0, 2**24)`` on that bit generator: one word per value, masked.
* ``aten/src/ATen/CPUGeneratorImpl.cpp`` -- ``random()`` is one 32-bit word,
  ``random64()`` two words, the first one the high half
  (``detail::make64BitsFrom32Bits``); ``set_current_seed`` keeps the 64-bit
  seed for ``initial_seed()`` and clears the cached normal sample.
* ``aten/src/ATen/core/TransformationHelper.h`` -- ``uniform_real``:
  ``(val & (2**digits - 1)) * 2**-digits`` (24 bits of one word for float32,
  53 bits of a 64-bit draw for float64), then ``x * (to - from) + from``;
  ``uniform_int_from_to``: ``(val % range) + base`` in uint64 arithmetic.
* ``aten/src/ATen/core/DistributionsHelper.h`` --
  ``uniform_int_from_to_distribution`` (a 64-bit draw when ``range >= 2**28``,
  the open-source build's threshold, for every dtype), ``normal_distribution<double>``
  (Box-Muller on two 53-bit uniforms, ``r = sqrt(-2 log1p(-u2))``,
  ``theta = 2 pi u1``; ``r cos(theta)`` is returned and ``r sin(theta)`` cached
  in the generator for the next call).
* ``aten/src/ATen/native/DistributionTemplates.h`` -- argument checks,
  ``update_from`` / ``update_to`` for ``randint`` into floating dtypes, the
  ``[from, to)`` bounds of ``uniform_``.
* ``aten/src/ATen/native/cpu/DistributionTemplates.h`` (+ ``DistributionKernels.cpp``,
  ``native/cpu/avx_mathfun.h``) -- ``normal_kernel``: a contiguous tensor with
  ``numel >= 16`` is filled with uniforms, then transformed 16 at a time (the
  first 8 give the radius ``sqrt(-2 log(1 - u))``, the last 8 the angle
  ``2 pi u``); when ``numel % 16 != 0`` the last 16 values are drawn again and
  recomputed.  float32 uses ``normal_fill_AVX2`` (the AVX2 kernel serves AVX2
  and AVX-512 machines alike) with ``log256_ps`` / ``sincos256_ps`` (cephes
  polynomials) and ``_mm256_fmadd_ps(n, std, mean)``; float64 uses
  ``normal_fill`` with libm's ``log``/``cos``/``sin``.  Smaller or non-contiguous
  tensors use ``normal_distribution<double>`` element by element, in memory
  order.  ``uniform_kernel`` and ``random_from_to_kernel`` are serial loops in
  memory order.

Details established by checking against PyTorch 2.13 itself (and pinned by
tests/autograd/test_random.py):

* PyTorch is built with GCC's default ``-ffp-contract=fast``: ``x * (to - from) + from``,
  ``val * std + mean`` and most multiply-adds inside ``avx_mathfun.h`` are fused
  multiply-adds.  Each one is emulated exactly here (:func:`_fma64`,
  :func:`_fma_to_f32`; the float32 kernel was compared with a plain transcription
  using exact fmaf for all 2**24 possible inputs).
* ``uniform_`` never returns ``to``: a value that rounds up to ``to`` becomes
  ``from``.
* float16 (Half) ``rand``/``uniform_`` compute in float (24-bit uniforms) and
  round to Half, then apply the rule above with ``to`` rounded to Half; float16
  ``randn``/``normal_`` with ``numel >= 16`` run the float32 AVX2 kernel and round
  its results, drawing only whole blocks before the tail block.

Everything here is numpy + the standard library; torch is never imported.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import numpy as np

from . import batching as _batching

__all__ = [
    "DEFAULT_SEED",
    "Generator",
    "default_generator",
    "initial_seed",
    "manual_seed",
]

#: The seed of a fresh ``torch.Generator()`` (``default_rng_seed_val`` in c10).
DEFAULT_SEED = 67280421310721

_N = 624  # MERSENNE_STATE_N
_M = 397  # MERSENNE_STATE_M
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF

_F32 = np.float32
_F64 = np.float64
_I32 = np.int32
_I64 = np.int64
_U32 = np.uint32
_U64 = np.uint64

Shape = int | Sequence[int]


# --------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------

def _error(message: str, kind: str = "runtime") -> Exception:
    """A gradcli error of ``kind`` (falls back to ValueError outside the package)."""
    try:
        from ..errors import error_class
    except ImportError:  # pragma: no cover - module used on its own
        return ValueError(message)
    return error_class(kind)(message)


def _warn(message: str) -> None:
    try:
        from ..errors import warn
    except ImportError:  # pragma: no cover
        return
    warn("other", message)


_DTYPE_ALIASES = {
    "float": "float32", "double": "float64", "half": "float16", "long": "int64",
    "int": "int32", "short": "int16", "bool_": "bool",
}
_FLOAT_DTYPES = ("float16", "float32", "float64")
_INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
_TORCH_NAMES = {
    "float16": "Half", "float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
    "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
}


def _dtype_name(dtype) -> str:
    """Normalise a dtype given as 'float32', a gradcli/torch-like dtype object or a numpy dtype."""
    if isinstance(dtype, str):
        name = dtype
    else:
        name = getattr(dtype, "name", None)
        if not isinstance(name, str):
            name = np.dtype(dtype).name
    name = name.removeprefix("torch.")
    return _DTYPE_ALIASES.get(name, name)


def _shape_tuple(shape: Shape) -> tuple:
    dims = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    for d in dims:
        if d < 0:
            raise _error(f"Trying to create tensor with negative dimension {d}: {list(dims)}")
    return dims


# --------------------------------------------------------------------------------------
# MT19937 (MT19937RNGEngine.h)
# --------------------------------------------------------------------------------------

def _seed_key(seed: int) -> np.ndarray:
    """``init_with_uint32``: the 624-word state for ``seed`` (only its low 32 bits count)."""
    key = [0] * _N
    x = seed & 0xFFFFFFFF
    key[0] = x
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        key[j] = x
    return np.array(key, dtype=_U32)


def _temper(y: np.ndarray) -> np.ndarray:
    """MT19937 tempering of an array of uint32 state words."""
    y = y ^ (y >> _U32(11))
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    y ^= y >> _U32(18)
    return y


class _PureMT19937:
    """The Mersenne Twister in numpy, vectorised.

    The state is (key, pos): ``key`` is the current 624-word block and ``pos`` is
    PyTorch's ``next_`` (0..624); 624 means the next draw twists first (PyTorch's
    ``left_ == 1``).

    ``next_state`` computes ``mt[i] = mt[i + 397] ^ twist(mt[i], mt[i + 1])`` in
    order, so the words form one stream ``x[n] = x[n - 227] ^ T[n - 624]`` with
    ``T[m] = twist(x[m], x[m + 1])`` (new block after new block).  The nearest
    dependency is 227 words back, so new words are produced in vectorised slices
    of 227 (the 227/227/169/1 slices of one block, continued across blocks), and
    the ``T`` terms, which only need words at least 623 back, in larger batches.
    Tempering is one vectorised pass over the output.
    """

    def __init__(self, key: np.ndarray, pos: int) -> None:
        self.key = np.array(key, dtype=_U32)
        self.pos = int(pos)

    @staticmethod
    def _blocks(key: np.ndarray, count: int) -> np.ndarray:
        """The next ``count`` blocks of state words after ``key`` (untempered)."""
        total = _N * (count + 1)
        x = np.empty(total, dtype=_U32)
        x[:_N] = key
        t = np.empty(total - _N, dtype=_U32)     # T[m] = twist(x[m], x[m + 1])
        tmp = np.empty(total - _N, dtype=_U32)
        done = 0                                 # T known for m < done
        lag = _N - _M                            # 227
        p = _N
        while p < total:
            k = min(lag, total - p)
            if done < p - _N + k:                # T up to index p - 2 only needs x[..p - 1]
                a, b = done, min(p - 1, total - _N)
                lo, hi, tb = x[a:b], x[a + 1:b + 1], t[a:b]
                tm = tmp[: b - a]
                np.bitwise_and(lo, _U32(_UPPER), out=tb)
                np.bitwise_and(hi, _U32(_LOWER), out=tm)
                np.bitwise_or(tb, tm, out=tb)
                np.right_shift(tb, _U32(1), out=tb)
                np.bitwise_and(hi, _U32(1), out=tm)
                np.multiply(tm, _U32(_MATRIX_A), out=tm)
                np.bitwise_xor(tb, tm, out=tb)
                done = b
            np.bitwise_xor(x[p - lag:p - lag + k], t[p - _N:p - _N + k], out=x[p:p + k])
            p += k
        return x[_N:]

    def raw(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs, as uint64 (like numpy's ``random_raw``)."""
        words = self.key[self.pos:self.pos + n]
        rest = n - words.shape[0]
        if rest > 0:
            count = -(-rest // _N)
            new = self._blocks(self.key, count)
            words = np.concatenate([words, new[:rest]])
            self.key = new[-_N:].copy()
            self.pos = rest - (count - 1) * _N
        else:
            self.pos += n
        return _temper(words).astype(_U64)

    def raw24(self, n: int) -> np.ndarray:
        """The low 24 bits of the next ``n`` outputs, as int32."""
        return (self.raw(n) & _MASK24).astype(_I32)

    def get_state(self):
        return self.key.copy(), self.pos

    def set_state(self, key, pos) -> None:
        self.key = np.array(key, dtype=_U32)
        self.pos = int(pos)


class _NumpyMT19937:
    """The same engine run by ``numpy.random.MT19937`` (standard MT19937 in C)."""

    def __init__(self, key: np.ndarray, pos: int) -> None:
        self._bg = np.random.MT19937(0)
        self._legacy = None
        self.set_state(key, pos)

    def raw(self, n: int) -> np.ndarray:
        return self._bg.random_raw(n)

    def raw24(self, n: int) -> np.ndarray:
        """The low 24 bits of the next ``n`` outputs, as int32, in one C loop: the legacy
        ``RandomState.randint(0, 2**24)`` on the same bit generator draws one 32-bit word per
        value and masks it with 2**24 - 1 (its masked method never rejects when the range is
        the mask itself); checked against :meth:`raw` when the engine is first built."""
        if self._legacy is None:
            self._legacy = np.random.RandomState(self._bg)
        return self._legacy.randint(0, 1 << 24, size=n, dtype=_I32)

    def get_state(self):
        st = self._bg.state["state"]
        return np.array(st["key"], dtype=_U32), int(st["pos"])

    def set_state(self, key, pos) -> None:
        self._bg.state = {"bit_generator": "MT19937",
                          "state": {"key": np.array(key, dtype=_U32), "pos": int(pos)}}


def _numpy_mt_works() -> bool:
    try:
        eng = _NumpyMT19937(_seed_key(5489), _N)
        ref = _PureMT19937(_seed_key(5489), _N)
        a, b = eng.raw(1300), ref.raw(1300)
        ok = a.dtype == _U64 and bool(np.array_equal(a, b)) and int(a[0]) == 3499211612
        c, d = eng.raw24(1250), ref.raw24(1250)      # the masked draw, continuing the stream
        return ok and c.dtype == _I32 and bool(np.array_equal(c, d)) and eng.get_state()[1] == ref.pos
    except (AttributeError, TypeError, ValueError, KeyError):  # pragma: no cover - exotic numpy
        return False


#: Use numpy's C implementation of the Mersenne Twister (checked against the pure one when the
#: first engine is built; None until then: the check imports numpy.random, ~20 ms of start-up).
USE_NUMPY_ENGINE: bool | None = None


def _make_engine(key: np.ndarray, pos: int):
    global USE_NUMPY_ENGINE
    if USE_NUMPY_ENGINE is None:
        USE_NUMPY_ENGINE = _numpy_mt_works()
    if USE_NUMPY_ENGINE:
        return _NumpyMT19937(key, pos)
    return _PureMT19937(key, pos)


class _Unbuilt:
    """The (key, pos) state of an engine not built yet: seeding alone never draws, so a run
    that seeds (every run does) but draws nothing never builds one."""

    __slots__ = ("key", "pos")

    def __init__(self, key: np.ndarray, pos: int) -> None:
        self.key, self.pos = key, pos

    def get_state(self):
        return self.key.copy(), self.pos


# --------------------------------------------------------------------------------------
# exact floating-point helpers
# --------------------------------------------------------------------------------------

# the error-free transformations and fused multiply-adds live in .fma (also used by ops that PyTorch
# computes as one fused multiply-add); the names stay importable from here
from .fma import fma64 as _fma64, fma_to_f32 as _fma_to_f32  # noqa: E402


# --------------------------------------------------------------------------------------
# libm agreement (float64 log / log1p / sin / cos)
# --------------------------------------------------------------------------------------

_LIBM_OK: bool | None = None


def _numpy_matches_libm() -> bool:
    """Whether numpy's float64 log/log1p/sin/cos give the C library's results (PyTorch
    calls ``std::log`` etc.; Python's ``math`` calls the same libm).  Checked once on a
    fixed sample; when they disagree the slow exact path through ``math`` is used."""
    global _LIBM_OK
    if _LIBM_OK is None:
        k = _PureMT19937(_seed_key(12345), _N).raw(2 * 4096)
        u = ((k[0::2] & _U64(0x1FFFFF)) << _U64(32) | k[1::2]).astype(_F64) * 2.0 ** -53
        u = np.concatenate([u, u * 1e-6, 1.0 - u * 1e-3])
        ok = True
        theta = (2.0 * math.pi) * u
        one_minus = 1.0 - u
        for fn, mfn, arg in ((np.log, math.log, one_minus[one_minus > 0]), (np.log1p, math.log1p, -u),
                             (np.sin, math.sin, theta), (np.cos, math.cos, theta)):
            got = fn(arg)
            want = np.array([mfn(v) for v in arg.tolist()], dtype=_F64)
            if not np.array_equal(got.view(_U64), want.view(_U64)):
                ok = False
                break
        _LIBM_OK = ok
    return _LIBM_OK


def _libm(name: str, x: np.ndarray) -> np.ndarray:
    """The C library's float64 ``name`` (log, log1p, sin, cos) of every element of ``x``, any shape: numpy's
    loop where it gives the C library's bits (:func:`_numpy_matches_libm`), else ``math`` element by element."""
    if _numpy_matches_libm():
        return getattr(np, name)(x)
    fn = getattr(math, name)
    flat = np.ravel(x).tolist()  # a flat list of floats whatever x's shape (tolist of 2-d x gives rows)
    return np.fromiter(map(fn, flat), dtype=_F64, count=len(flat)).reshape(x.shape)


# --------------------------------------------------------------------------------------
# float32 normal_fill_AVX2 (DistributionTemplates.h + avx_mathfun.h), vectorised
# --------------------------------------------------------------------------------------

_LOG_P = [_F64(_F32(v)) for v in (
    7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
    -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)]
_LOG_Q1 = _F32(-2.12194440e-4)
_LOG_Q2 = _F32(0.693359375)
_SQRTHF_MANT = 0x3504F3  # mantissa bits of float32(0.707106781186547524)
_FOPI = _F32(1.27323954473516)
_DP1 = _F32(-0.78515625)
_DP2 = _F32(-2.4187564849853515625e-4)
_DP3 = _F64(_F32(-3.77489497744594108e-8))
_COS_C = [_F64(_F32(v)) for v in (2.443315711809948E-005, -1.388731625493765E-003, 4.166664568298827E-002)]
_SIN_C = [_F64(_F32(v)) for v in (-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1)]
_TWO_PI_F = _F32(2.0 * math.pi)  # _mm256_set1_ps(2.0f * c10::pi<double>)
_THETA_SCALE = _F32(_TWO_PI_F * _F32(2.0 ** -24))  # exact: theta = k * 2**-24 * two_pi
_MASK24 = _U64(0xFFFFFF)

_SQRTHF_BITS = 0x3F000000 | _SQRTHF_MANT  # bits of float32(0.707106781186547524)

_F32_CHUNK_PAIRS = 16384  # (radius, angle) pairs per vectorised step: measured best on the 2-core
# reference machine (larger chunks fall out of L2, smaller ones pay more of the ~50 us fixed cost per chunk)

# the angle's octant reduction as used below, per octant index q (y = 2q, see _avx2_sincos)
_RED_C = float(2.0 * _DP3)                         # y * DP3 = q * _RED_C, exact in float64
# single-rounding float32 steps by "magic" addition (see _avx2_sincos): M = 1.5 * 2**(52 - 23 + b)
# for results in the binade [2**b, 2**(b + 1)); C + M is exact
_COS_M1, _SIN_M1 = 1.5 * 2.0 ** 19, 1.5 * 2.0 ** 22   # |cos step 1| in [2**-10, 2**-9), sin in [2**-7, 2**-6)
_COS_C1M, _SIN_C1M = float(_COS_C[1]) + _COS_M1, float(_SIN_C[1]) + _SIN_M1
_SIGN = _I32(-(2 ** 31))
_V32 = np.dtype("V32")  # one half-block: 8 float32 / int32 lanes

_mul, _add, _sub = np.multiply, np.add, np.subtract
_shr, _shl, _and, _xor, _neg, _sqrt = (np.right_shift, np.left_shift, np.bitwise_and, np.bitwise_xor,
                                       np.negative, np.sqrt)


def _c32(v) -> np.ndarray:
    return np.array(v, dtype=_F32)


def _c64(v) -> np.ndarray:
    return np.array(v, dtype=_F64)


def _ci(v) -> np.ndarray:
    return np.array(v, dtype=_I32)


# The kernel's constants as 0-d arrays of the operands' own dtype: numpy converts a Python
# scalar on every call (about 1 us, a third of a 16384-lane step), a 0-d array of the same
# dtype not at all, and the arithmetic is the same.
_K = type("_KernelConstants", (), {})()
_K.two24, _K.sqrthf_e, _K.sqrthf = _ci(1 << 24), _ci(_SQRTHF_BITS + (24 << 23)), _ci(_SQRTHF_BITS)
_K.i23, _K.mant, _K.one32 = _ci(23), _ci(0x7FFFFF), _c32(1.0)
_K.log_p = [_c64(v) for v in _LOG_P]
_K.q1x2, _K.q2xm2 = _c32(_F32(2.0) * _LOG_Q1), _c32(_F32(-2.0) * _LOG_Q2)
_K.i21, _K.i22, _K.i1, _K.i8, _K.sign = _ci(1 << 21), _ci(22), _ci(1), _ci(8), _ci(_SIGN)
_K.i4m = _ci(1 << 22)
_K.theta, _K.red_c = _c32(_THETA_SCALE), _c64(_RED_C)
_K.dp1x2, _K.dp2x2 = _c32(_F32(2.0) * _DP1), _c32(_F32(2.0) * _DP2)
# per-row constants of the [cosine; sine] polynomials, shape (2, 1)
_K.cs_c0 = _c64([[_COS_C[0]], [_SIN_C[0]]])
_K.cs_c1m, _K.cs_m1 = _c64([[_COS_C1M], [_SIN_C1M]]), _c64([[_COS_M1], [_SIN_M1]])
_K.cs_c2 = _c64([[_COS_C[2]], [_SIN_C[2]]])
_K.mhalf = _c64(-0.5)


class _F32Work:
    """Scratch arrays for the float32 normal kernel (n lanes = n (radius, angle) pairs), with
    the views the kernel uses made once."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.k = np.empty((2, n), _I32)      # the radius words' and the angle words' low 24 bits
        self.u = np.empty((2, n), _I32)
        for name in ("ia", "ib", "q"):
            setattr(self, name, np.empty(n, _I32))
        for name in ("jf", "a", "x", "y", "z", "e", "r"):
            setattr(self, name, np.empty(n, _F32))
        self.x64, self.y64 = np.empty(n, _F64), np.empty(n, _F64)
        self.q64 = self.y64                  # the angle's, free once the radius is done (in cache)
        self.zx64 = np.empty((2, n), _F64)   # [z; x] of the angle lanes
        self.p64 = np.empty((2, n), _F64)    # [cosine; sine] polynomial
        self.p = np.empty((2, n), _F32)
        self.k0, self.k1 = self.k
        self.u0, self.u1 = self.u
        self.jf_bits, self.ia_f = self.jf.view(_I32), self.ia.view(_F32)
        self.z64, self.ax64 = self.zx64
        self.pc, self.ps = self.p64
        self.p0 = self.p[0]
        self.pb = self.p.view(_I32)
        self.pb0, self.pb1 = self.pb
        self.k_v = self.k0.view(_V32), self.k1.view(_V32)
        self.p_v = self.p[0].view(_V32), self.p[1].view(_V32)


_WORK = threading.local()


def _work(n: int) -> _F32Work:
    """Scratch arrays for n lanes, kept (per thread) for reuse: fresh pages are costly to fault in."""
    cache = getattr(_WORK, "cache", None)
    if cache is None:
        cache = _WORK.cache = {}
    w = cache.get(n)
    if w is None:
        if len(cache) >= 4:
            cache.clear()
        w = cache[n] = _F32Work(n)
    return w


def _avx2_radius(w: _F32Work, k1: np.ndarray, r_out: np.ndarray) -> None:
    """``r_out = sqrt(-2 * log256_ps(u1))`` for ``u1 = 1 - k1 * 2**-24`` (k1: int32, 0 .. 2**24 - 1).

    log256_ps with GCC's contractions: every ``y = y * x + p`` of the polynomial,
    ``y = (y * x) * z + e * q1`` and the final ``x + e * q2`` are fused (the last one
    is exact anyway).  Fused steps are computed in float64 (exact product) and
    rounded once to float32; an exhaustive check over all 2**24 inputs showed that
    this double rounding never differs from a true fmaf here.

    Range reduction on the bits of ``j = 2**24 - k1`` (u1 = j * 2**-24 exactly): log256_ps
    takes the mantissa ``xm`` in [0.5, 1) and the exponent ``e``, and where ``xm < SQRTHF``
    uses ``x = xm + xm - 1, e - 1`` (exact), else ``x = xm - 1``: that is ``x = m - 1`` for
    the mantissa ``m`` scaled into [SQRTHF, 2 * SQRTHF), which subtracting SQRTHF's bits
    from j's bits gives at once (the borrow moves the exponent); ``e`` comes out of the
    same difference with 24 (for 2**-24) folded in.

    After the polynomial the kernel's steps are done on doubled values, one float32
    rounding each as in the kernel (scaling by 2 commutes with rounding; no value here
    is near underflow): ``Y = y * 2x``, ``F = fma(Y, z, e * 2q1)``, ``G = F - z``
    (for ``y - z * 0.5``), ``H = 2x + G``, and ``-2 log = e * -2q2 - H`` (for
    ``(x + e * q2) * -2``); the signs of zeros match (u1 = 1 gives -0, as in PyTorch).
    """
    K = _K
    jf, ia, ib = w.jf, w.ia, w.ib
    a, x, y, z, e = w.a, w.x, w.y, w.z, w.e
    x64, y64 = w.x64, w.y64
    _sub(K.two24, k1, ia)                          # j = 2**24 - k1 (1 .. 2**24)
    jf[...] = ia                                   # exact
    _sub(w.jf_bits, K.sqrthf_e, ia)
    _shr(ia, K.i23, ib)                            # e
    _and(ia, K.mant, ia)
    _add(ia, K.sqrthf, ia)                         # bits of m in [SQRTHF, 2 SQRTHF)
    _sub(w.ia_f, K.one32, x)                       # x = m - 1 (exact)
    x64[...] = x
    # polynomial: y = p0; y = fma(y, x, p_k) for k = 1..8, each rounded to float32
    lp = K.log_p
    _mul(x64, lp[0], y64)
    _add(y64, lp[1], y64)
    for p in lp[2:]:
        y[...] = y64
        y64[...] = y
        _mul(y64, x64, y64)
        _add(y64, p, y64)
    y[...] = y64
    _add(x, x, a)                                  # 2x
    _mul(y, a, y)                                  # Y = 2 * (y * x)
    _mul(x, x, z)                                  # z = x * x
    e[...] = ib
    _mul(e, K.q1x2, jf)                            # 2 * (e * q1)
    y64[...] = y
    x64[...] = z
    _mul(y64, x64, y64)
    x64[...] = jf
    _add(y64, x64, y64)
    y[...] = y64                                   # F = 2 * fma(y, z, e * q1)
    _sub(y, z, y)                                  # G = 2 * (y - z * 0.5)
    _add(a, y, a)                                  # H = 2 * (x + y)
    _mul(e, K.q2xm2, e)                            # -2 * (e * q2) (exact)
    _sub(e, a, a)                                  # -2 * (x + e * q2) = -2 log(u1)
    _sqrt(a, r_out)


def _avx2_sincos(w: _F32Work, k2: np.ndarray, out2: np.ndarray) -> None:
    """sincos256_ps(theta) for ``theta = two_pi * (k2 * 2**-24)`` (k2: int32, 0 .. 2**24 - 1):
    ``out2[0]`` gets the cosine, ``out2[1]`` the sine (float32).

    Fused steps (as GCC contracts them): the three ``x += y * DPi`` of the range
    reduction, the two polynomial Horner steps of each polynomial, ``y * z - z * 0.5``
    of the cosine and ``y * x + x`` of the sine.

    theta is in [0, 2 pi), so the octant j = (int(theta * 4/pi) + 1) & ~1 is 2q with
    q = (k2 + 2**21) >> 22 in 0..4 (checked for all 2**24 inputs by the tests).  With
    y = 2q the products ``y * DP1`` and ``y * DP2`` are exact in float32 (DP1 and DP2 have
    few significant bits), so those two fused steps are plain float32 additions (the first
    one exact); ``fma(y, DP3, x)`` is rounded from float64, where ``y * DP3`` is exact.

    The first Horner step of both polynomials has results in one binade for every
    argument (|cos| in [2**-10, 2**-9), |sin| in [2**-7, 2**-6)), so its float32
    rounding is the rounding of ``v + M`` to float64 (then ``- M``, exact) with
    ``M = 1.5 * 2**(29 + b)``: fmaf itself, with no float32 round trip before the next
    product.  The second step is rounded to float64, then to float32; that double
    rounding equals fmaf for every argument (exhaustive kernel test).
    The cosine's ``fma(yc, z, -(z * 0.5))`` is computed as ``(yc - 0.5) * z`` in float64,
    then rounded to float32: other operations, but the same float32 result for every one
    of the 2**24 arguments (the exhaustive kernel test, GRADCLI_EXHAUSTIVE=1).

    Selection and signs use integer masks on the bit patterns: for odd q the sine and
    cosine polynomials swap; the sine is negated for q in {2, 3}, the cosine for q in {1, 2}.
    """
    K = _K
    q, ia, u, u0, u1 = w.q, w.ia, w.u, w.u0, w.u1
    x, z = w.x, w.z
    q64 = w.q64
    zx64, p64, p = w.zx64, w.p64, w.p
    z64, x64, pc, ps = w.z64, w.ax64, w.pc, w.ps
    _add(k2, K.i21, u1)                            # bit 23: q & 2, the sine's sign
    _shr(u1, K.i22, q)                             # octant index q; y = 2q
    x[...] = k2
    _mul(x, K.theta, x)                            # theta = two_pi * u2 (rounded)
    qf, t = w.y, w.a                               # (free here)
    qf[...] = q
    _mul(qf, K.dp1x2, t)                           # y * DP1 (exact)
    _add(x, t, x)                                  # exact
    _mul(qf, K.dp2x2, t)                           # y * DP2 (exact)
    _add(x, t, x)
    x64[...] = x
    q64[...] = q
    _mul(q64, K.red_c, q64)
    _add(q64, x64, q64)                            # x = fma(y, DP3, x)
    x[...] = q64
    x64[...] = x
    _mul(x, x, z)
    z64[...] = z
    # Horner steps 1 (rounded through M) and 2 (rounded twice) of both polynomials
    _mul(z64, K.cs_c0, p64)
    _add(p64, K.cs_c1m, p64)
    _sub(p64, K.cs_m1, p64)
    _mul(p64, z64, p64)
    _add(p64, K.cs_c2, p64)
    p[...] = p64
    _mul(p, z, p)                                  # y * z (float32)
    p64[...] = p
    _add(pc, K.mhalf, pc)
    _mul(p64, zx64, p64)                           # [(yc - 0.5) * z; ys * x]
    _add(ps, x64, ps)                              # fma(ys, x, x)
    p[...] = p64
    _add(w.p0, K.one32, w.p0)                      # cosine polynomial + 1
    # selection and signs on the bits
    _and(q, K.i1, q)
    _neg(q, q)                                     # -1 where q is odd
    _xor(w.pb0, w.pb1, ia)
    _and(ia, q, ia)                                # D = (yc ^ ys) where q is odd, else 0
    _add(u1, K.i4m, u0)                            # bit 23: (q + 1) & 2, the cosine's sign
    _shl(u, K.i8, u)
    _and(u, K.sign, u)
    _xor(u, ia, u)
    _xor(w.pb, u, out2.view(_I32))                 # [cos; sin] = [yc; ys] ^ D ^ signs


def _avx2_chunk(words: np.ndarray, dst: np.ndarray, m32) -> None:
    """normal_fill_16_AVX2 of one chunk: ``words`` (int32, the low 24 bits of 2n drawn words, in order) into
    ``dst`` (float32, 2n values), plus ``m32`` when it is not None."""
    w = _work(words.shape[0] // 2)
    words = words.view(_V32)
    kv0, kv1 = w.k_v
    np.copyto(kv0, words[0::2])
    np.copyto(kv1, words[1::2])
    _avx2_radius(w, w.k0, w.r)
    _avx2_sincos(w, w.k1, w.p)
    _mul(w.p, w.r, w.p)
    if m32 is not None:
        _add(w.p, m32, w.p)
    dst = dst.view(_V32)
    pv0, pv1 = w.p_v
    np.copyto(dst[0::2], pv0)
    np.copyto(dst[1::2], pv1)


_F32_PARALLEL = 1 << 20  # values from which the chunks' transforms are shared with a second thread
_STEAL_AT = 8  # queued chunks from which the drawing thread transforms one itself


def _avx2_blocks(draw24, out: np.ndarray, mean32=None) -> None:
    """normal_fill_16_AVX2 on consecutive 16-value blocks, drawing words with ``draw24(n)``
    (their low 24 bits, int32).

    ``out`` (float32, contiguous, length a multiple of 16) gets ``radius * cos``
    in the first 8 and ``radius * sin`` in the last 8 lanes of each block, i.e.
    the values before ``fmadd(n, std, mean)``, plus ``mean32`` when given (the
    fmadd for std == 1).  Words are drawn chunk by chunk, in order, so the work
    arrays stay in cache; a block's two halves are 32-byte units moved as such.

    From ``_F32_PARALLEL`` values on, a second thread transforms chunks while this one draws the next
    words (the Mersenne Twister is sequential, the transform of a chunk is not; numpy releases the GIL in
    both): each chunk's values are the same whichever thread computes them.
    """
    total = out.shape[0]
    step = 2 * _F32_CHUNK_PAIRS
    m32 = None if mean32 is None else _c32(mean32)
    if total < _F32_PARALLEL:
        for start in range(0, total, step):
            stop = min(total, start + step)
            _avx2_chunk(draw24(stop - start), out[start:stop], m32)
        return
    import queue

    step *= 2  # two threads: chunks of twice the size were measured faster (fewer GIL hand-overs)
    todo: queue.SimpleQueue = queue.SimpleQueue()
    failed: list = []

    def worker() -> None:
        while True:
            item = todo.get()
            if item is None:
                return
            try:
                _avx2_chunk(item[0], item[1], m32)
            except BaseException as exc:  # (MemoryError) re-raised by the caller
                failed.append(exc)
                return

    helper = threading.Thread(target=worker, daemon=True)
    helper.start()
    try:
        for start in range(0, total, step):
            stop = min(total, start + step)
            todo.put((draw24(stop - start), out[start:stop]))
            if todo.qsize() > _STEAL_AT:  # the helper is behind: transform one chunk here too
                try:
                    item = todo.get_nowait()
                except queue.Empty:
                    continue
                _avx2_chunk(item[0], item[1], m32)
        while True:  # all drawn: share what is left
            try:
                item = todo.get_nowait()
            except queue.Empty:
                break
            _avx2_chunk(item[0], item[1], m32)
    finally:
        todo.put(None)
        helper.join()
    if failed:
        raise failed[0]


def _avx2_normal(draw24, size: int, full_draw: bool, vals: np.ndarray | None = None,
                 mean32=None) -> np.ndarray:
    """float32 ``normal_fill_AVX2`` values (before mean/std, or plus ``mean32`` when given) of a
    contiguous tensor of ``size >= 16``, written into ``vals`` (a new array when None) and returned.

    ``full_draw``: uniforms are drawn for all ``size`` elements before the tail
    block (float32); the reduced-precision path (float16) draws only whole blocks.
    """
    if vals is None:
        vals = np.empty(size, _F32)
    main = size - size % 16
    _avx2_blocks(draw24, vals[:main], mean32)
    if size % 16:
        if full_draw:
            draw24(size - main)                          # drawn, then overwritten by the tail
        tail = np.empty(16, _F32)
        _avx2_blocks(draw24, tail, mean32)
        vals[size - 16:] = tail
    return vals


# --------------------------------------------------------------------------------------
# float64 / float16 normal_fill, serial normal_distribution<double>
# --------------------------------------------------------------------------------------

_CHUNK = 1 << 16  # values per chunk for the uniform transforms (cache-sized work arrays)


def _uniform53(draw, count: int) -> np.ndarray:
    """``count`` values of uniform_real_distribution<double>(0, 1): 53 bits of each
    ``random64()`` (two words, the first the high half), times 2**-53."""
    out = np.empty(count, _F64)
    for start in range(0, count, _CHUNK):
        stop = min(count, start + _CHUNK)
        raw = draw(2 * (stop - start))
        hi = raw[0::2]
        np.bitwise_and(hi, _U64(0x1FFFFF), out=hi)         # (hi << 32 | lo) & (2**53 - 1)
        np.left_shift(hi, _U64(32), out=hi)
        np.bitwise_or(hi, raw[1::2], out=hi)
        o = out[start:stop]
        np.copyto(o, hi.view(_I64), casting="unsafe")       # exact: < 2**53
        np.multiply(o, 2.0 ** -53, out=o)
    return out


def _uniform24(draw, count: int) -> np.ndarray:
    """``count`` values of uniform_real_distribution<float>(0, 1): the low 24 bits of
    each word times 2**-24."""
    out = np.empty(count, _F32)
    for start in range(0, count, _CHUNK):
        stop = min(count, start + _CHUNK)
        raw = draw(stop - start)
        np.bitwise_and(raw, _MASK24, out=raw)
        o = out[start:stop]
        np.copyto(o, raw.view(_I64), casting="unsafe")
        np.multiply(o, _F32(2.0 ** -24), out=o)
    return out


def _fill64_blocks(u: np.ndarray, out: np.ndarray) -> None:
    """normal_fill_16<double> on uniforms ``u`` (length a multiple of 16) into ``out``,
    before ``* std + mean``."""
    u3 = u.reshape(-1, 2, 8)
    o3 = out.reshape(-1, 2, 8)
    radius = np.sqrt(-2.0 * _libm("log", 1.0 - u3[:, 0, :]))
    theta = (2.0 * math.pi) * u3[:, 1, :]
    np.multiply(radius, _libm("cos", theta), out=o3[:, 0, :])
    np.multiply(radius, _libm("sin", theta), out=o3[:, 1, :])


def _fill64(draw, size: int, out: np.ndarray) -> None:
    """``normal_fill<double>`` values (before mean/std) of a contiguous tensor of ``size >= 16``:
    all ``size`` uniforms are drawn (chunk by chunk), the whole blocks transformed, then
    the last 16 values drawn again and recomputed when ``size % 16 != 0``."""
    main = size - size % 16
    for start in range(0, main, _CHUNK):
        stop = min(main, start + _CHUNK)
        _fill64_blocks(_uniform53(draw, stop - start), out[start:stop])
    if size % 16:
        _uniform53(draw, size - main)                    # drawn, then overwritten by the tail
        _fill64_blocks(_uniform53(draw, 16), out[size - 16:])


def _to_half(x) -> np.ndarray:
    """double -> c10::Half, which converts through float."""
    return np.asarray(x, dtype=_F64).astype(_F32).astype(np.float16)


def _cast_from_double(values: np.ndarray, name: str) -> np.ndarray:
    if name == "float16":
        return _to_half(values)
    return values.astype(np.dtype(name))


# --------------------------------------------------------------------------------------
# the generator
# --------------------------------------------------------------------------------------

def _check_seed(seed) -> int:
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise _error(f"manual_seed expected an integer seed, got {seed!r}", "type") from None
    if not -(1 << 63) <= seed < (1 << 64):
        raise _error(f"the seed {seed} does not fit in 64 bits (PyTorch accepts -2**63 .. 2**64-1)")
    return seed % (1 << 64)


class Generator:
    """A CPU random generator with PyTorch's state and streams (``torch.Generator``).

    ``Generator(seed)`` is ``torch.Generator().manual_seed(seed)``; the default seed
    is PyTorch's ``67280421310721``.  All methods draw from this generator's own
    Mersenne Twister and return new numpy arrays (or fill one in place).
    """

    _gradcli_public = frozenset({"manual_seed", "initial_seed"})

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self._seed = 0
        self._eng = None
        self._next_double_normal: float | None = None
        self.manual_seed(seed)

    def __repr__(self) -> str:
        return "<torch._C.Generator object>"

    # -- state ------------------------------------------------------------------------

    def manual_seed(self, seed: int) -> Generator:
        """Reseed (``CPUGeneratorImpl::set_current_seed``); returns self.

        The whole 64-bit seed is kept for :meth:`initial_seed`; the Mersenne
        Twister only uses its low 32 bits.  Negative seeds wrap modulo 2**64.
        """
        self._seed = _check_seed(seed)
        self._eng = _Unbuilt(_seed_key(self._seed), _N)
        self._next_double_normal = None
        return self

    @property
    def _engine(self):
        """The Mersenne Twister, built at the first draw."""
        if _batching.state.randomness:
            _batching.on_draw()  # torch.func.vmap's randomness= mode
        eng = self._eng
        if type(eng) is _Unbuilt:
            eng = self._eng = _make_engine(eng.key, eng.pos)
        return eng

    def initial_seed(self) -> int:
        """The seed last given to :meth:`manual_seed` (as an unsigned 64-bit integer)."""
        return self._seed

    def get_state(self) -> tuple:
        """An opaque snapshot of the generator (for ``set_state``; e.g. to replay draws)."""
        key, pos = self._eng.get_state()
        return (self._seed, key, pos, self._next_double_normal)

    def set_state(self, state: tuple) -> Generator:
        """Restore a snapshot taken with :meth:`get_state`; returns self."""
        seed, key, pos, nxt = state
        self._seed = int(seed)
        self._eng = _Unbuilt(np.array(key, dtype=_U32), int(pos))
        self._next_double_normal = nxt
        return self

    def clone(self) -> Generator:
        """An independent generator in the same state."""
        g = Generator.__new__(Generator)
        g._eng = None
        g._next_double_normal = None
        return g.set_state(self.get_state())

    # -- raw draws --------------------------------------------------------------------

    def _raw(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words (``random()``), as uint64."""
        if n <= 0:
            return np.empty(0, dtype=_U64)
        return self._engine.raw(int(n))

    def _raw24(self, n: int) -> np.ndarray:
        """The low 24 bits of the next ``n`` words, as int32 (the float32 normal kernel's input)."""
        if n <= 0:
            return np.empty(0, dtype=_I32)
        return self._engine.raw24(int(n))

    def _random64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit draws (``random64()``: two words, the first is the high half)."""
        raw = self._raw(2 * n)
        return (raw[0::2] << _U64(32)) | raw[1::2]

    # -- public API -------------------------------------------------------------------

    def randn(self, shape: Shape, dtype="float32") -> np.ndarray:
        """``torch.randn(*shape, dtype=dtype)``: standard normal values."""
        out = np.empty(_shape_tuple(shape), dtype=self._float_dtype(dtype, "normal_kernel_cpu"))
        self.normal_(out)
        return out

    def rand(self, shape: Shape, dtype="float32") -> np.ndarray:
        """``torch.rand(*shape, dtype=dtype)``: uniform values in [0, 1)."""
        out = np.empty(_shape_tuple(shape), dtype=self._float_dtype(dtype, "check_uniform_bounds"))
        self.uniform_(out)
        return out

    def randint(self, low: int, high: int, shape: Shape, dtype="int64") -> np.ndarray:
        """``torch.randint(low, high, shape, dtype=dtype)``: integers in [low, high).

        Like ``random_from_to``: ``range = high - low``; one 32-bit word per value,
        or one 64-bit draw when ``range >= 2**28`` (any dtype: the open-source
        build's ``uniform_int_from_to_distribution``, which limits the modulo skew);
        value ``= (draw % range) + low``, converted to ``dtype``.
        """
        name = _dtype_name(dtype)
        if name not in _INT_DTYPES + _FLOAT_DTYPES:
            if name == "bool":
                raise _error("to - 1 is out of bounds for bool")
            raise _error(f"randint does not support dtype {name}", "type")
        low, high = int(low), int(high)
        for v in (low, high):
            if not -(1 << 63) <= v < (1 << 63):
                raise _error(f"randint bound {v} does not fit in int64")
        if low >= high:
            raise _error(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        if name in _FLOAT_DTYPES:
            low, high = _update_from(low, name), _update_to(high, name)
            if low >= high:
                raise _error("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                             f"but got from={low} >= to={high}")
        self._check_int_bounds(low, high, name)
        shape = _shape_tuple(shape)
        count = int(np.prod(shape, dtype=np.int64))
        rng = high - low
        if rng >= (1 << 28):
            draws = self._random64(count)
        else:
            draws = self._raw(count)
        vals = (draws % _U64(rng)) + _U64(low % (1 << 64))   # wraps modulo 2**64 like uint64_t
        vals = vals.view(_I64)
        if name == "int64":
            return vals.reshape(shape)
        if name == "float16":
            return vals.astype(_F32).astype(np.float16).reshape(shape)   # int64 -> float -> Half
        return vals.astype(np.dtype(name)).reshape(shape)

    def random_full(self, shape: Shape, dtype="int64") -> np.ndarray:
        """``empty(shape, dtype=dtype).random_()``: PyTorch's ``uniform_int_distribution`` over the type's whole
        range -- a 64-bit draw for int64/float64 (``% 2**63`` / ``% (2**53 + 1)``), a 32-bit one otherwise
        (``% (max + 1)`` for integers, ``% (2**digits + 1)`` for float32/float16, ``& 1`` for bool)."""
        name = _dtype_name(dtype)
        shape = _shape_tuple(shape)
        count = int(np.prod(shape, dtype=np.int64))
        if name in ("int64", "float64"):
            draws = self._random64(count)
            mod = (1 << 63) if name == "int64" else (1 << 53) + 1
        else:
            draws = self._raw(count)
            if name == "bool":
                return (draws & _U64(1)).astype(np.bool_).reshape(shape)
            mod = {"uint8": 256, "int8": 128, "int16": 1 << 15, "int32": 1 << 31, "float32": (1 << 24) + 1,
                   "float16": (1 << 11) + 1}[name]
        vals = draws % _U64(mod)
        if name == "float16":
            return vals.astype(_F32).astype(np.float16).reshape(shape)
        return vals.astype(np.dtype(name)).reshape(shape)

    def random_int64(self) -> int:
        """``torch.empty((), dtype=torch.int64).random_()``: one 64-bit draw modulo 2**63
        (``uniform_int_distribution<int64_t>``: ``random64() % (INT64_MAX + 1)``) -- how DataLoader and
        RandomSampler take a seed from the stream."""
        return int(self._random64(1)[0] % _U64(1 << 63))

    def bernoulli_(self, out: np.ndarray, p: float) -> None:
        """``out.bernoulli_(p)`` for a float ``p`` in [0, 1]: PyTorch's default CPU kernel
        (``bernoulli_scalar_kernel_default``, the kernel of non-Intel hosts): one
        ``uniform_real_distribution<double>`` draw per element in memory order, ``u < p`` written as 1 or 0
        in ``out``'s dtype.  (PyTorch's MKL builds use MKL's own stream on Intel CPUs instead.)"""
        size = out.size
        if size == 0:
            return
        mask = _uniform53(self._raw, size) < float(p)
        _assign_in_memory_order(out, mask.astype(out.dtype))

    def randperm(self, n: int) -> np.ndarray:
        """``torch.randperm(n)`` (int64): PyTorch's CPU ``randperm_cpu`` for ``n < 2**32 / 20``, a Fisher-Yates
        shuffle of ``arange(n)`` swapping ``i`` with ``i + random() % (n - i)`` for ``i < n - 1``: one 32-bit
        word per position (n - 1 words)."""
        n = int(n)
        if n < 0:
            raise _error(f"n must be non-negative, got{n}")
        if n >= (1 << 32) // 20:
            raise _error(f"randperm of n >= {(1 << 32) // 20} is not supported by gradcli", "unsupported")
        r = list(range(n))
        if n > 1:
            words = self._raw(n - 1).tolist()
            for i in range(n - 1):
                z = i + words[i] % (n - i)
                r[i], r[z] = r[z], r[i]
        return np.array(r, dtype=_I64)

    def normal_(self, out: np.ndarray, mean: float = 0.0, std: float = 1.0) -> None:
        """``out.normal_(mean, std)``: fill ``out`` in place, as PyTorch's ``normal_kernel``."""
        name = _dtype_name(out.dtype)
        if name not in _FLOAT_DTYPES:
            raise _error(f'"normal_kernel_cpu" not implemented for \'{_TORCH_NAMES.get(name, name)}\'')
        mean, std = float(mean), float(std)
        if not std >= 0.0:
            raise _error(f"normal expects std >= 0.0, but found std {_fmt(std)}")
        size = out.size
        if size == 0:
            return
        if size < 16 or not out.flags.c_contiguous:
            self._normal_serial(out, mean, std, name)
            return
        flat = out.reshape(-1)
        if name == "float32":
            if _F32(std) == 1.0:     # fmadd(n, 1, mean) = n + mean, applied chunk by chunk
                _avx2_normal(self._raw24, size, True, flat, _F32(mean))
            else:
                _avx2_normal(self._raw24, size, True, flat)
                _apply_mean_std32(flat, mean, std)
        elif name == "float64":
            _fill64(self._raw, size, flat)
            _apply_mean_std64(flat, mean, std)
        else:  # float16: computed in float (opmath) by the AVX2 kernel, then rounded to Half
            vals = _avx2_normal(self._raw24, size, full_draw=False)
            _apply_mean_std32(vals, mean, std)
            flat[:] = vals.astype(np.float16)

    def uniform_(self, out: np.ndarray, a: float = 0.0, b: float = 1.0) -> None:
        """``out.uniform_(a, b)``: fill ``out`` in place, as PyTorch's ``uniform_kernel``."""
        name = _dtype_name(out.dtype)
        if name not in _FLOAT_DTYPES:
            raise _error(f'"check_uniform_bounds" not implemented for \'{_TORCH_NAMES.get(name, name)}\'')
        frm, to = float(a), float(b)
        fmax = float(np.finfo(np.dtype(name)).max)
        cname = {"float16": "c10::Half", "float32": "float", "float64": "double"}[name]
        for label, v in (("from", frm), ("to", to)):
            if not -fmax <= v <= fmax:
                raise _error(f"{label} is out of bounds for {cname}")
        if not frm <= to:
            raise _error(f"uniform_ expects to return a [from, to) range, but found from={_fmt(frm)} > to={_fmt(to)}")
        if not to - frm <= fmax:
            raise _error(f"uniform_ expects to-from <= std::numeric_limits<{_TORCH_NAMES[name]}>::max(), but found "
                         f"to={_fmt(to)} and from={_fmt(frm)} which result in to-from to exceed the limit")
        size = out.size
        if size == 0:
            return
        if name == "float64":
            x = _uniform53(self._raw, size)
            if frm == 0.0 and to == 1.0:
                vals = x
            else:
                vals = _fma64(x, to - frm, frm)
                vals[vals == to] = frm                       # a value rounded up to `to` becomes `from`
        else:
            # float32, and float16 computed in float (opmath) then rounded
            f32, t32 = _F32(frm), _F32(to)
            with np.errstate(over="ignore"):
                rng = t32 - f32                               # float arithmetic (inf is possible for Half)
            vals = _uniform24(self._raw, size)
            if not (f32 == 0.0 and t32 == 1.0):
                vals = _fma_to_f32(vals, rng, f32)
            if name == "float16":
                vals = vals.astype(np.float16)
                vals[vals == np.float16(t32)] = np.float16(f32)
            else:
                vals[vals == t32] = f32
        _assign_in_memory_order(out, vals)

    # -- helpers ----------------------------------------------------------------------

    @staticmethod
    def _float_dtype(dtype, kernel: str) -> np.dtype:
        name = _dtype_name(dtype)
        if name not in _FLOAT_DTYPES:
            raise _error(f'"{kernel}" not implemented for \'{_TORCH_NAMES.get(name, name)}\'')
        return np.dtype(name)

    @staticmethod
    def _check_int_bounds(low: int, high: int, name: str) -> None:
        if name in _INT_DTYPES:
            info = np.iinfo(np.dtype(name))
            lo, hi = int(info.min), int(info.max)
            cname = {"uint8": "unsigned char", "int8": "signed char", "int16": "short",
                     "int32": "int", "int64": "long"}[name]
        else:
            digits = {"float16": 11, "float32": 24, "float64": 53}[name]
            cname = {"float16": "c10::Half", "float32": "float", "float64": "double"}[name]
            fmax = float(np.finfo(np.dtype(name)).max)
            for label, v in (("from", low), ("to - 1", high - 1)):
                if not -fmax <= v <= fmax:
                    raise _error(f"{label} is out of bounds for {cname}")
            limit = 1 << digits
            for label, v in (("from", low), ("to - 1", high - 1)):
                if not -limit <= v <= limit:
                    _warn(f"{label} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                          f"limitations {cname} can support discrete uniform distribution only within this "
                          "range. This warning will become an error in version 1.7 release, please fix the "
                          "code in advance")
            return
        if not lo <= low <= hi:
            raise _error(f"from is out of bounds for {cname}")
        if not lo <= high - 1 <= hi:
            raise _error(f"to - 1 is out of bounds for {cname}")

    def _normal_serial(self, out: np.ndarray, mean: float, std: float, name: str) -> None:
        """``normal_distribution<double>`` element by element, in memory order."""
        n = out.size
        parts = []
        if self._next_double_normal is not None:
            parts.append(np.array([self._next_double_normal], dtype=_F64))
            self._next_double_normal = None
            n -= 1
        if n > 0:
            pairs = (n + 1) // 2
            u = _uniform53(self._raw, 2 * pairs)
            u1, u2 = u[0::2], u[1::2]
            r = np.sqrt(-2.0 * _libm("log1p", -u2))
            theta = (2.0 * math.pi) * u1
            both = np.empty((pairs, 2), dtype=_F64)
            both[:, 0] = r * _libm("cos", theta)
            both[:, 1] = r * _libm("sin", theta)
            both = both.reshape(-1)
            if n % 2:
                self._next_double_normal = float(both[-1])
                both = both[:-1]
            parts.append(both)
        vals = np.concatenate(parts) if len(parts) > 1 else parts[0]
        _apply_mean_std64(vals, mean, std)
        _assign_in_memory_order(out, _cast_from_double(vals, name))


def _apply_mean_std32(vals: np.ndarray, mean: float, std: float) -> None:
    """``vals = _mm256_fmadd_ps(vals, std, mean)`` in place, with float32 ``mean`` and ``std``.

    A single rounding of ``vals * std + mean``; with ``std == 1`` that is one float32
    addition (which also turns the -0 of ``sqrt(-0) * cos`` into +0 for ``mean == 0``).
    """
    m32, s32 = _F32(mean), _F32(std)
    if s32 == 1.0:
        np.add(vals, m32, out=vals)
    elif m32 == 0.0:
        np.multiply(vals, s32, out=vals)
        np.add(vals, m32, out=vals)
    else:
        vals[:] = _fma_to_f32(vals, s32, m32)


def _apply_mean_std64(vals: np.ndarray, mean: float, std: float) -> None:
    """``vals = vals * std + mean`` in place, as one fused multiply-add (what GCC makes of it)."""
    if std == 1.0:
        np.add(vals, mean, out=vals)
    elif mean == 0.0:
        np.multiply(vals, std, out=vals)
        np.add(vals, mean, out=vals)
    else:
        vals[:] = _fma64(vals, std, mean)


def _assign_in_memory_order(out: np.ndarray, vals: np.ndarray) -> None:
    """Store consecutive values into ``out`` in the order of its memory addresses
    (TensorIterator's order for a nullary op), i.e. row-major for a contiguous array."""
    if out.flags.c_contiguous:
        out.reshape(-1)[:] = vals
        return
    offsets = np.zeros(out.shape, dtype=np.int64)
    for axis, (dim, stride) in enumerate(zip(out.shape, out.strides)):
        shape = [1] * out.ndim
        shape[axis] = dim
        offsets = offsets + (np.arange(dim, dtype=np.int64) * stride).reshape(shape)
    order = np.argsort(offsets.reshape(-1), kind="stable")
    idx = np.unravel_index(order, out.shape)
    out[idx] = vals


_DIGITS = {"float16": 11, "float32": 24, "float64": 53}


def _round_int(v: int, bits: int) -> int:
    """``v`` rounded to ``bits`` significant bits, ties to even (an int64 -> float conversion)."""
    a = abs(v)
    drop = a.bit_length() - bits
    if drop <= 0:
        return v
    q, r = divmod(a, 1 << drop)
    half = 1 << (drop - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return (q << drop) if v >= 0 else -(q << drop)


def _int_through_float(v: int, name: str) -> int:
    """``static_cast<int64_t>(static_cast<scalar_t>(v))`` (Half converts through float)."""
    if name == "float16":
        return _round_int(_round_int(v, 24), 11)
    return _round_int(v, _DIGITS[name])


def _update_from(frm: int, name: str) -> int:
    """``update_from<scalar_t>`` (native/DistributionTemplates.h): move ``from`` right so
    that no value rounds below it once converted to the floating dtype."""
    plus1 = _int_through_float(frm + 1, name)
    if plus1 < frm:
        n = max(abs(frm + 1).bit_length() - 1, 0)
        frm = plus1 + (1 << (n - _DIGITS[name] + 1))
    return frm


def _update_to(to: int, name: str) -> int:
    """``update_to<scalar_t>``: move ``to`` left likewise."""
    minus1 = _int_through_float(to - 1, name)
    if minus1 >= to:
        n = max(abs(to - 1).bit_length() - 1, 0)
        to = minus1 - (1 << (n - _DIGITS[name] + 1))
    return to


def _fmt(v: float) -> str:
    return repr(int(v)) if float(v).is_integer() and abs(v) < 1e16 else repr(v)


class TorchGenerator(Generator):
    """``torch.Generator(device='cpu')`` as a file builds it: a CPU generator with PyTorch's default seed
    (``manual_seed`` returns it, so ``torch.Generator().manual_seed(42)`` works; ``initial_seed``, ``device``).
    Another device is PyTorch's RuntimeError on a CPU-only build."""

    _gradcli_public = frozenset({"manual_seed", "initial_seed", "device"})
    _gradcli_type_name = "Generator"

    def __init__(self, device: object = "cpu") -> None:
        text = getattr(device, "type", device)
        if text != "cpu":
            if text == "cuda":
                raise _error("Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend "
                             "into two shared libraries: a CPU library and a CUDA library; this error has "
                             "occurred because you are trying to use some CUDA functionality, but the CUDA "
                             "library has not been loaded by the dynamic linker for some reason.  The CUDA "
                             "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA "
                             "library! One common culprit is a lack of -Wl,--no-as-needed in your link "
                             "arguments; many dynamic linkers will delete dynamic library dependencies if you "
                             "don't depend on any of their symbols.  You can check if this has occurred by using "
                             "ldd on your binary to see if there is a dependency on *_cuda.so library.")
            raise _error("Cannot access accelerator device when none is available.")
        super().__init__(DEFAULT_SEED)

    @property
    def device(self):
        from .tensor import _CPU  # the one cpu device object tensors report

        return _CPU


#: The generator behind ``torch.manual_seed`` / ``torch.randn`` ...; gradcli seeds it from
#: ``--seed`` (default 0) before running a file, so runs are repeatable.
default_generator = Generator(0)


def manual_seed(seed: int) -> Generator:
    """``torch.manual_seed(seed)``: reseed :data:`default_generator` and return it."""
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """``torch.initial_seed()``: the seed of :data:`default_generator`."""
    return default_generator.initial_seed()
