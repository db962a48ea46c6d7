"""Reductions: sum, mean (more in this module: prod, max/min, amax/amin, norm, var, std, logsumexp).

Node names follow PyTorch: the full reduction is ``SumBackward0`` /
``MeanBackward0``; with ``dim=`` it is ``SumBackward1`` / ``MeanBackward1``.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentTypeError, ArgumentIndexError
from ..autograd import batching as _batching
from ._core import Node, Tensor, dt, record
from .registry import register


def normalize_dims(dim, ndim: int) -> tuple:
    """dim (int, sequence or None) -> sorted tuple of non-negative dims; IndexError as PyTorch's."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        dims = dim
    else:
        dims = (dim,)
    n = max(ndim, 1)
    out = []
    for d in dims:
        if not isinstance(d, int) or isinstance(d, bool):
            raise ArgumentTypeError(f"dim must be an int, got {type(d).__name__}")
        if not -n <= d < n:
            raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        out.append(d % n)
    if len(set(out)) != len(out):
        from ..errors import error_class

        raise error_class("runtime")("dim appears multiple times in the list of dims")
    return tuple(sorted(out)) if ndim else ()


def _expand_back(g: Tensor, shape: tuple, dims: tuple, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back to ``shape`` (re-inserting reduced dims)."""
    if not keepdim and dims:
        for d in dims:
            g = g.unsqueeze(d)
    return g.expand(shape)


class SumBackward0(Node):
    __slots__ = ("shape",)
    formula = "self: grad.expand(self.sizes())"

    def apply(self, grads):
        return (grads[0].expand(self.shape),)


class SumBackward1(Node):
    __slots__ = ("shape", "dims", "keepdim")
    formula = "self: grad (unsqueezed at dim unless keepdim).expand(self.sizes())"

    def apply(self, grads):
        return (_expand_back(grads[0], self.shape, self.dims, self.keepdim),)


# --- PyTorch's float32/float64 summation order ---------------------------------------------------------
# A float sum is rounded at every addition, so its last bits depend on the order.  PyTorch's CPU kernel
# (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum) adds in AVX2 lanes (8 floats, 4 doubles), 4 interleaved
# accumulators and a 4-level cascade; numpy adds pairwise.  The difference is an ulp: invisible in float32
# results but not once cast to float64 (the gradient of a float64 operand broadcast against float32 is summed
# in float32, then cast), nor in a float64 sum's .item() (most float64 sums of 5 or more random values differ
# from numpy's).  Full reductions of contiguous float32/float64 data up to PyTorch's parallel grain (32768
# elements, above which the result depends on the thread count) follow PyTorch's order exactly, and so do
# reductions over some dims of a (permuted) contiguous tensor of that size (_dim_sum: a Linear's bias
# gradient is grad.sum(0)); others use numpy.

_VEC = 8  # Vectorized<float>::size() on AVX2 (the CPU capability of the recorded PyTorch); double: 4
_GRAIN = 32768  # at::internal::GRAIN_SIZE
_SMALL_ORDER = {n: np.array([0] + list(range(4, n)) + [1, 2, 3]) for n in range(4, _VEC)}


def _seq(rows: np.ndarray) -> np.ndarray:
    """Row-by-row float32 sum of a 2-D array, one lane per column (numpy reduces axis 0 of a C-contiguous
    array sequentially when it has two or more columns; a single column goes through cumsum)."""
    if rows.shape[1] == 1:
        return np.cumsum(rows[:, 0])[-1:]
    return np.add.reduce(rows, axis=0)


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """multi_row_sum: the rows summed lane-wise in a 4-level cascade of blocks of 2**level_power rows."""
    size, width = rows.shape
    level_power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // 4)
    step = 1 << level_power
    mask = step - 1
    zero = np.zeros(width, rows.dtype)
    acc = [zero, zero, zero, zero]
    i = 0
    while i + step <= size:
        acc[0] = _seq(np.concatenate((acc[0][None], rows[i:i + step])))
        i += step
        for j in range(1, 4):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = zero
            if i & (mask << (j * level_power)):
                break
    return _seq(np.concatenate((acc[0][None], rows[i:], acc[1][None], acc[2][None], acc[3][None])))


def _row_sum(x: np.ndarray) -> np.ndarray:
    """row_sum: the (m, lanes) rows summed with 4 interleaved accumulators (ilp_factor 4)."""
    m, lanes = x.shape
    k = m // 4
    if k:
        ps = _multi_row_sum(x[:k * 4].reshape(k, 4 * lanes)).reshape(4, lanes)
    else:
        ps = np.zeros((4, lanes), x.dtype)
    return _seq(np.concatenate((ps[:1], x[k * 4:], ps[1:])))


def _torch_sum(a: np.ndarray):
    """The sum of all elements of contiguous float32 or float64 ``a`` (4 <= a.size <= 32768) in PyTorch's
    order (a numpy scalar of a's dtype)."""
    x = a.reshape(-1)
    n = x.size
    vec = _VEC if x.dtype == np.float32 else _VEC // 2
    if n < vec:  # scalar_inner_sum: one row of 4 accumulators, the rest into the first
        return np.cumsum(x[_SMALL_ORDER[n]])[-1]
    vs = n // vec  # vectorized_inner_sum: the lanes, then the tail and the lane partials in order
    lanes = _row_sum(x[:vs * vec].reshape(vs, vec))
    return np.cumsum(np.concatenate((np.zeros(1, x.dtype), x[vs * vec:], lanes)))[-1]


def _full_sum(a: np.ndarray, odt) -> np.ndarray:
    """np.sum of every element, in PyTorch's order for float32 and float64 (see above)."""
    if (odt is dt.float32 or odt is dt.float64) and a.dtype == odt.np and 4 <= a.size <= _GRAIN \
            and a.flags.c_contiguous:
        return np.asarray(_torch_sum(a))
    return np.asarray(np.sum(a, dtype=odt.np))


def _rows_inner_sum(x: np.ndarray) -> np.ndarray:
    """Each row of (m, n) ``x`` summed as :func:`_torch_sum` sums a contiguous run (vectorized_inner_sum for
    n >= the vector width, scalar_inner_sum's row_sum below it), all rows at once: (m,)."""
    m, n = x.shape
    vec = _VEC if x.dtype == np.float32 else _VEC // 2
    if n < 4:
        return np.cumsum(x, axis=1)[:, -1] if n > 1 else x[:, 0].copy()
    if n < vec:
        return np.cumsum(x[:, _SMALL_ORDER[n]], axis=1)[:, -1]
    vs = n // vec
    # the rows' vectors side by side as lanes: row_sum is lane-wise, so one call sums every row
    blocks = x[:, :vs * vec].reshape(m, vs, vec).transpose(1, 0, 2).reshape(vs, m * vec)
    lanes = _row_sum(blocks).reshape(m, vec)
    return np.cumsum(np.concatenate((np.zeros((m, 1), x.dtype), x[:, vs * vec:], lanes), axis=1), axis=1)[:, -1]


def _blocks_outer_sum(x: np.ndarray) -> np.ndarray:
    """Each (R, C) block of (B, R, C) ``x`` summed over its rows as SumKernel.cpp's outer reductions do:
    vectorized_outer_sum (C >= the vector width) sums the first 32 * (C // 32) columns with multi_row_sum's
    cascade and the others with row_sum; scalar_outer_sum (narrower) the first 4 * (C // 4) with
    multi_row_sum and the rest with row_sum.  Both are lane-wise, so the blocks go side by side: (B, C)."""
    nb, r, c = x.shape
    vec = _VEC if x.dtype == np.float32 else _VEC // 2
    cascaded = 4 * vec * (c // (4 * vec)) if c >= vec else 4 * (c // 4)
    cols = x.transpose(1, 0, 2)  # (R, B, C)
    out = np.empty((nb, c), x.dtype)
    if cascaded:
        out[:, :cascaded] = _multi_row_sum(cols[:, :, :cascaded].reshape(r, -1)).reshape(nb, cascaded)
    if cascaded < c:
        out[:, cascaded:] = _row_sum(cols[:, :, cascaded:].reshape(r, -1)).reshape(nb, c - cascaded)
    return out


def _dim_sum(a: np.ndarray, dims: tuple, odt) -> "np.ndarray | None":
    """``a`` summed over ``dims`` (some of its dims, not all) in PyTorch's order, without keepdim, or None
    where that order is not reproduced (the caller uses numpy).

    Follows cascade_sum (aten/src/ATen/native/cpu/SumKernel.cpp) under TensorIterator: the dims are ordered
    by stride with the reduced ones innermost, adjacent ones coalesce, and the 2-d loop gets the innermost
    reduced run ``e0`` and the next run.  When ``e0`` holds the last (unit-stride) dim, each row over ``e0``
    is an inner sum; otherwise the loop is an outer reduction of ``e0`` into the kept run ending at the last
    dim.  The loop's results are stored by accumulation (``out += ...`` from 0) over the other reduced dims,
    in memory order.  Reproduced for float32/float64 tensors that are a permutation of a contiguous one, up
    to :data:`_GRAIN` elements (one thread)."""
    if not ((odt is dt.float32 or odt is dt.float64) and a.dtype == odt.np and 0 < a.size <= _GRAIN):
        return None
    nd = a.ndim
    red_n = 1
    for d in dims:
        red_n *= a.shape[d]
    if red_n < 4:
        # at most three terms per output: PyTorch's kernels and numpy both add them one by one in order
        # (the caller's numpy sum), without this function's per-call cost on every broadcast backward
        return None
    order = sorted(range(nd), key=lambda d: -a.strides[d])  # slowest first
    b = a.transpose(order)
    if not b.flags.c_contiguous:
        return None
    where = {d: i for i, d in enumerate(order)}
    red = {where[d] for d in dims if a.shape[d] != 1}  # reduced dims of b (size-1 dims reduce to themselves)
    if not red:
        return None
    big = [i for i in range(nd) if b.shape[i] != 1]
    if len(red) == len(big):  # every element but size-1 dims: the full sum's order
        return _rows_inner_sum(b.reshape(1, -1)).reshape([a.shape[d] for d in range(nd) if d not in dims])
    # e0: the innermost reduced dim and the reduced dims next to it in memory (size-1 dims are transparent)
    inner = max(red)
    pos = big.index(inner)
    e0 = [inner]
    while pos > 0 and big[pos - 1] in red:
        pos -= 1
        e0.insert(0, big[pos])
    rest_red = sorted(red - set(e0))
    kept = [i for i in range(nd) if i not in red]
    last = big[-1]
    if last == inner:  # inner reduction of each row over e0
        head = rest_red + [i for i in kept]
        t = b.transpose(head + e0)
        n0 = int(np.prod([b.shape[i] for i in e0]))
        res = _rows_inner_sum(t.reshape(-1, n0))
        res = res.reshape([b.shape[i] for i in head])
    elif rest_red:  # the loop's second dim is the next reduced run: scalar_inner_sum, row_sum along e0
        head = rest_red + kept
        t = b.transpose(head + e0)
        n0 = int(np.prod([b.shape[i] for i in e0]))
        res = _row_sum(np.ascontiguousarray(t.reshape(-1, n0).T)).reshape([b.shape[i] for i in head])
    else:  # outer reduction of e0 into the kept run that ends at the last dim
        pos = big.index(last)
        e1 = [last]
        while pos > 0 and big[pos - 1] not in red:
            pos -= 1
            e1.insert(0, big[pos])
        others = [i for i in kept if i not in e1]
        head = rest_red + others
        t = b.transpose(head + e0 + e1)
        n0 = int(np.prod([b.shape[i] for i in e0]))
        n1 = int(np.prod([b.shape[i] for i in e1]))
        res = _blocks_outer_sum(np.ascontiguousarray(t).reshape(-1, n0, n1))
        res = res.reshape([b.shape[i] for i in head] + [b.shape[i] for i in e1])
        head = head + e1
    # res's axes: rest_red, then kept dims of b (in some order); accumulate over rest_red in memory order
    nr = len(rest_red)
    if nr:
        flat = res.reshape((-1,) + res.shape[nr:])
        acc = np.zeros(flat.shape[1:], a.dtype)
        for row in flat:
            acc = acc + row
        res = acc
    kept_b = head[nr:]  # dims of b, in res's order
    res = res.transpose(np.argsort(kept_b))  # b's order
    kept_a = [order[i] for i in sorted(kept_b)]
    return np.ascontiguousarray(res.transpose(np.argsort(kept_a))).reshape(
        [a.shape[d] for d in range(nd) if d not in dims])


def plus_zero(data):
    """``data + 0`` for floats: PyTorch's sum/mean/cumsum accumulate from +0.0, so a sum of -0.0s is +0.0
    (numpy starts from the first element and keeps -0.0); every other value is unchanged."""
    data = np.asarray(data)
    if data.dtype.kind == "f":
        return np.asarray(data + data.dtype.type(0))
    return data


def _sum_dtype(t: Tensor, dtype):
    if dtype is not None:
        return dtype
    return t._dtype if t._dtype.is_floating_point else dt.int64


def sum(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Sum of all elements (SumBackward0) or over ``dim`` (SumBackward1); ints/bools sum to int64."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"sum(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    odt = _sum_dtype(input, dtype)
    if dim is None and not keepdim:
        data = plus_zero(_full_sum(input._data, odt))
        out, node = record(SumBackward0, data, odt, (input,))
        if node is not None:
            node.shape = input._data.shape
        return out
    dims = normalize_dims(None if isinstance(dim, (tuple, list)) and not dim else dim, input._data.ndim)  # (): all
    if len(dims) == input._data.ndim:  # every dim: the full reduction's order, reshaped
        data = _full_sum(input._data, odt).reshape((1,) * input._data.ndim if keepdim else ())
    else:
        data = _dim_sum(input._data, tuple(sorted(dims)), odt)
        if data is None:
            data = np.sum(input._data, axis=dims, keepdims=keepdim, dtype=odt.np)
        elif keepdim:
            data = np.expand_dims(data, tuple(sorted(dims)))
    out, node = record(SumBackward1, plus_zero(data), odt, (input,))
    if node is not None:
        node.shape = input._data.shape
        node.dims = dims
        node.keepdim = keepdim
    return out


class MeanBackward0(Node):
    __slots__ = ("shape", "numel")
    formula = "self: grad.expand(self.sizes()) / self.numel()"

    def apply(self, grads):  # expand, then divide (a fresh tensor, DivBackward0 under create_graph)
        return (grads[0].expand(self.shape) / self.numel,)


class MeanBackward1(Node):
    __slots__ = ("shape", "dims", "keepdim", "count")
    formula = "self: grad.expand(self.sizes()) / (number of reduced elements)"

    def apply(self, grads):
        return (_expand_back(grads[0], self.shape, self.dims, self.keepdim) / self.count,)


def check_out_variant(input: Tensor, name: str) -> None:
    """mean/var/std/logsumexp of an inference tensor that requires grad, with grad mode on outside
    inference_mode: PyTorch computes them through an ``out=`` kernel (autograd is not dispatched to for the
    inference input) and refuses, naming that kernel (runtime)."""
    from ..autograd.grad_mode import state

    if input._inference and input._requires_grad and state.enabled and not state.inference:
        from ..errors import error_class

        raise error_class("runtime")(f"{name}(): functions with out=... arguments don't support automatic "
                                     "differentiation, but one of the arguments requires grad.")


def mean(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Arithmetic mean (MeanBackward0 / MeanBackward1).  Integer tensors are an error, as in PyTorch."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"mean(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    check_out_variant(input, "sum")
    odt = dtype or input._dtype
    if not odt.is_floating_point:
        from ..errors import error_class

        tn = {"int64": "Long", "int32": "Int", "bool": "Bool"}.get(odt.name, odt.name)
        raise error_class("runtime")(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {tn}",
            "Convert first: t.float().mean().",
        )
    if dim is None and not keepdim:
        if not input._data.size:
            data = np.float64("nan")
        elif odt is dt.float32 or odt is dt.float64:  # PyTorch: sum (in its order), then divide
            data = _full_sum(input._data, odt) / odt.np.type(input._data.size)
        else:
            data = np.mean(input._data, dtype=odt.np)
        out, node = record(MeanBackward0, plus_zero(np.asarray(data, dtype=odt.np)), odt, (input,))
        if node is not None:
            node.shape = input._data.shape
            node.numel = input._data.size
        return out
    dims = normalize_dims(None if isinstance(dim, (tuple, list)) and not dim else dim, input._data.ndim)  # (): all
    summed = None
    if odt is input._dtype and len(dims) < input._data.ndim:  # mean_out on CPU: sum_out(dim), then div_
        summed = _dim_sum(input._data, tuple(sorted(dims)), odt)
    if summed is not None:
        count = 1
        for d in dims:
            count *= input._data.shape[d]
        data = summed / odt.np.type(count)
        if keepdim:
            data = np.expand_dims(data, tuple(sorted(dims)))
    else:
        data = np.mean(input._data, axis=dims, keepdims=keepdim, dtype=odt.np)
    out, node = record(MeanBackward1, plus_zero(np.asarray(data, dtype=odt.np)), odt, (input,))
    if node is not None:
        node.shape = input._data.shape
        node.dims = dims
        node.keepdim = keepdim
        c = 1
        for d in dims:
            c *= input._data.shape[d]
        node.count = c
    return out


def sum_to_size(input: Tensor, *size) -> Tensor:
    """Sum ``input`` down to ``size`` (the shape it was broadcast from): how broadcasting is undone."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = input._data.shape
    if tuple(shape) == tuple(size):
        return input
    lead = len(shape) - len(size)
    if lead < 0 or [s for i, s in enumerate(size) if s != 1 and s != shape[lead + i]]:
        # Tensor.sum_to_size's check (is_expandable_to(size, self.sizes())); this module's any() is the op's
        from ..errors import error_class

        raise error_class("runtime")(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if not size:  # as at::sum_to: a plain sum (SumBackward0)
        return sum(input)
    dims = list(range(lead))
    for i, s in enumerate(size):
        if s == 1 and shape[lead + i] != 1:
            dims.append(lead + i)
    g = input
    if dims:
        g = sum(g, dim=tuple(dims), keepdim=True)
    if lead:
        g = g.reshape(tuple(size))
    elif g._data.shape != tuple(size):
        g = g.reshape(tuple(size))
    return g


def _any_all(name: str, npfn, input, dim, keepdim: bool) -> Tensor:
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    # dim=None: every dim; an empty list/tuple reduces nothing (unlike sum's)
    dims = normalize_dims(dim, input._data.ndim) if dim is None or not isinstance(dim, (list, tuple)) or dim \
        else ()
    data = npfn(input._data.astype(bool, copy=False), axis=dims, keepdims=keepdim)
    if dim is None and keepdim:
        data = data.reshape((1,) * input._data.ndim)
    odt = dt.uint8 if input._dtype is dt.uint8 else dt.bool_  # PyTorch keeps uint8
    out = Tensor._from_data(np.asarray(data, dtype=odt.np), odt)
    if _batching.state.depth:
        _batching.mark(out, (input,))  # (torch.func.vmap: `if x.any()` on a batched x)
    return out


def any(input, dim=None, keepdim: bool = False):
    """Is any element nonzero, over all elements or over ``dim`` (an int or a tuple of ints)?  A bool tensor
    (uint8 for uint8 input), never differentiable.  IndexError for a dim out of range."""
    return _any_all("any", np.any, input, dim, keepdim)


def all(input, dim=None, keepdim: bool = False):
    """Are all elements nonzero (over all elements or over ``dim``)?  As :func:`any`."""
    return _any_all("all", np.all, input, dim, keepdim)


register("sum", sum, "reduction", nodes=("SumBackward0", "SumBackward1"), formula=SumBackward1.formula,
         sample="reduce")
register("mean", mean, "reduction", nodes=("MeanBackward0", "MeanBackward1"), formula=MeanBackward1.formula,
         sample="reduce")
register("sum_to_size", sum_to_size, "reduction", torch=(), nodes=("SumBackward1",),
         formula="self: grad.expand(self.sizes())", sample=None)
register("any", any, "reduction", formula="")
register("all", all, "reduction", formula="")
