"""``F.bilinear`` / ``torch.bilinear`` (ATen's composite: ``_trilinear`` of the flattened inputs,
TrilinearBackward0, then ``reshape`` and ``+ bias``).

``y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]``: PyTorch's checks and messages (``bilinear():
input2 size does not match weight size: got 2 but expected 3`` ...); ``input.reshape(-1, features)``
(ViewBackward0 for a contiguous input), TrilinearBackward0 (edges x1, weight, x2), ``reshape`` back and
AddBackward0 for the bias.

Values: ATen's ``_trilinear`` (aten/src/ATen/native/Linear.cpp) step by step, so a float32 output has
PyTorch's bits: bilinear calls ``_trilinear(x1, W, x2, expand1={1,3}, expand2={0}, expand3={1,2},
sumdim={2,3})`` over the dims (batch, out, in1, in2), unrolled over ``out``: for each output feature k,
``sumproduct_pair`` of x1 and W[k] summed over in1 (a ``bmm`` (1, B, in1) @ (1, in1, in2)), then of that and
x2 summed over in2 (a ``bmm`` (B, 1, in2) @ (B, in2, 1)), added into a zero output.  ``TrilinearBackward0``
is ``_trilinear_backward``: three more ``_trilinear`` calls with the expand/sum lists permuted (the
gradient of the unrolled, summed ``out`` dim is accumulated feature by feature).  Each ``bmm`` is ATen's
CPU one (LinearAlgebra.cpp ``bmm_out_or_baddbmm_``): below 400 multiply-adds per matrix its naive kernel
(``acc += a * b`` from 0, k in order, in the dtype), else one ``mm`` per matrix (ops/gemm_order.py's MKL
order where reproduced).  Checked bit for bit against PyTorch 2.13 (tests/ops/test_bilinear_order_live.py).
Not reproduced: ``sumproduct_pair``'s sum of a dim present on one side only (never reached by bilinear:
numpy's sum), and products MKL runs through paths gemm_order.py lacks (in2 >= 400 makes the second ``bmm``
an N == 1 product).  The second derivative (a backward with create_graph=True through TrilinearBackward0)
is not supported by gradcli.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..errors import ArgumentTypeError, error_class, python_errors
from ._core import Node, Tensor, check_numel, mode, record, saved
from .registry import register

__all__ = ["bilinear"]


def _runtime(msg: str) -> Exception:
    return error_class("runtime")(msg)


class TrilinearBackward0(Node):
    __slots__ = ()
    formula = ("i1: sum over o, j of grad W x2; i2: sum over the batch of grad x1 x2; i3: sum over o, i of grad x1 W")

    def apply(self, grads):
        if mode.enabled:
            raise error_class("unsupported")(
                "the second derivative of F.bilinear (TrilinearBackward0: a backward with create_graph=True through "
                "it) is not supported by gradcli", "Use create_graph=False here, or run this file with PyTorch itself.")
        x1, w, x2 = self._unpack(0), self._unpack(1), self._unpack(2)
        g = grads[0]._data
        dtype = x1._dtype
        a, b, c = x1._data, w._data, x2._data
        n = self._needs
        # _trilinear_backward: the forward's expand lists (e1, e2, e3) and sumdim (s) swapped per input
        e1, e2, e3, s = _EXPAND1, _EXPAND2, _EXPAND3, _SUMDIM
        outs = (trilinear_data(g, b, c, s, e2, e3, e1, dtype) if n[0] else None,
                trilinear_data(a, g, c, e1, s, e3, e2, dtype) if n[1] else None,
                trilinear_data(a, b, g, e1, e2, s, e3, dtype) if n[2] else None)
        return tuple(None if o is None else Tensor._from_data(np.ascontiguousarray(o, dtype=dtype.np), dtype)
                     for o in outs)


# bilinear's _trilinear arguments (Linear.cpp): dims (batch, out, in1, in2)
_EXPAND1, _EXPAND2, _EXPAND3, _SUMDIM = (1, 3), (0,), (1, 2), (2, 3)
_NAIVE_BMM = 400  # bmm_out_or_baddbmm_: contraction * rows * cols below this runs the naive kernel


def bmm_data(left: np.ndarray, right: np.ndarray, dtype) -> np.ndarray:
    """ATen's CPU ``bmm`` values: the naive kernel below :data:`_NAIVE_BMM` multiply-adds per matrix, else one
    ``mm`` per matrix (linalg._mm_data: MKL's order where ops/gemm_order.py reproduces it)."""
    from .linalg import _mm_data

    bs, m, k = left.shape
    n = right.shape[2]
    if bs * m * n == 0 or k == 0:
        return np.zeros((bs, m, n), dtype=dtype.np)
    if k * m * n < _NAIVE_BMM:
        acc = np.zeros((bs, m, n), dtype=dtype.np)
        for t in range(k):  # baddbmm_cpu_kernel: acc += s2[k] * m1[k][j], rounded at each step
            acc = acc + left[:, :, t:t + 1] * right[:, t:t + 1, :]
        return acc
    return np.stack([_mm_data(left[i], right[i], dtype) for i in range(bs)])


def _sumproduct_pair(left: np.ndarray, right: np.ndarray, sum_dims: list, dtype) -> np.ndarray:
    """Linear.cpp's ``sumproduct_pair(left, right, sum_dims, keepdim=true)``: ``(left * right).sum(sum_dims)``
    by permuting both into a ``bmm``."""
    if not sum_dims:
        return left * right
    lro: list = []
    lo: list = []
    ro: list = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.ndim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:  # (not reached by bilinear; numpy's order)
                left = left.sum(axis=i, keepdims=True, dtype=dtype.np)
            elif sr:
                right = right.sum(axis=i, keepdims=True, dtype=dtype.np)
        elif sl and sr:
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    operm = [0] * len(out_size)
    for pos, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = pos
    l3 = left.transpose(lro + lo + list(sum_dims) + ro).reshape(lro_size, lo_size, sum_size)
    r3 = right.transpose(lro + list(sum_dims) + ro + lo).reshape(lro_size, sum_size, ro_size)
    return bmm_data(l3, r3, dtype).reshape(out_size).transpose(operm)


def trilinear_data(i1: np.ndarray, i2: np.ndarray, i3: np.ndarray, expand1, expand2, expand3, sumdim, dtype,
                   unroll_dim: int = 1) -> np.ndarray:
    """Linear.cpp's ``_trilinear``: ``(i1.unsqueeze(expand1) * i2.unsqueeze(expand2) * i3.unsqueeze(expand3))
    .sum(sumdim)``, unrolled over ``unroll_dim`` into two ``sumproduct_pair`` per slice."""
    total = i1.ndim + len(expand1)
    out_size: list = []
    sum12: list = []
    sum23: list = []
    unroll_size = -1
    for i in range(total):
        s = 0
        if i in expand1:
            i1 = np.expand_dims(i1, i)
        else:
            s = i1.shape[i]
        if i in expand2:
            i2 = np.expand_dims(i2, i)
        else:
            s = i2.shape[i]
        if i in expand3:
            i3 = np.expand_dims(i3, i)
            if i in sumdim and i != unroll_dim:
                sum12.append(i)
        else:
            s = i3.shape[i]
            if i in sumdim and i != unroll_dim:
                sum23.append(i)
        out_size.append(1 if i in sumdim else s)
        if i == unroll_dim:
            unroll_size = s
    m1, m2, m3 = (0 if unroll_dim in e else 1 for e in (expand1, expand2, expand3))
    output = np.zeros(out_size, dtype=dtype.np)
    if i1.size and i2.size and i3.size:
        def narrow(a: np.ndarray, at: int) -> np.ndarray:  # a view, as ATen's narrow (the strides decide
            return a[(slice(None),) * unroll_dim + (slice(at, at + 1),)]  # how a product reaches BLAS)

        for k in range(unroll_size):
            buf = _sumproduct_pair(narrow(i1, k * m1), narrow(i2, k * m2), sum12, dtype)
            buf = _sumproduct_pair(buf, narrow(i3, k * m3), sum23, dtype)
            if unroll_dim in sumdim:
                output = output + buf
            else:
                index = [slice(None)] * total
                index[unroll_dim] = slice(k, k + 1)
                output[tuple(index)] += buf
    return output.reshape([d for i, d in enumerate(out_size) if i not in sumdim])


def _trilinear(x1: Tensor, w: Tensor, x2: Tensor) -> Tensor:
    check_numel(x1._data.shape[0] * w._data.shape[0])
    data = trilinear_data(x1._data, w._data, x2._data, _EXPAND1, _EXPAND2, _EXPAND3, _SUMDIM, x1._dtype)
    out, node = record(TrilinearBackward0, np.ascontiguousarray(data, dtype=x1._dtype.np), x1._dtype, (x1, w, x2))
    if node is not None:
        node._save(saved(x1), saved(w), saved(x2))
    return out


@python_errors
def bilinear(input1: Any, input2: Any, weight: Any, bias: Optional[Tensor] = None) -> Tensor:
    """``F.bilinear(input1, input2, weight, bias=None)``: input1 (*, in1), input2 (*, in2), weight (out, in1,
    in2), bias (out,) -> (*, out)."""
    for pos, (name, v) in enumerate((("input1", input1), ("input2", input2), ("weight", weight)), start=1):
        if not isinstance(v, Tensor):
            raise ArgumentTypeError(f"bilinear(): argument '{name}' (position {pos}) must be Tensor, not "
                                    f"{type(v).__name__}")
    if bias is not None and not isinstance(bias, Tensor):
        raise ArgumentTypeError(f"bilinear(): argument 'bias' (position 4) must be Tensor, not {type(bias).__name__}")
    d1, d2 = input1.dim(), input2.dim()
    if d1 != d2:
        raise _runtime(f"bilinear(): input dimensions do not match: got {d1} and {d2}")
    for i in range(d1 - 1):
        if input1.size(i) != input2.size(i):
            raise _runtime(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.size(i)} and "
                           f"{input2.size(i)}")
    if input1.size(d1 - 1) != weight.size(1):
        raise _runtime(f"bilinear(): input1 size does not match weight size: got {input1.size(d1 - 1)} but expected "
                       f"{weight.size(1)}")
    if input2.size(d2 - 1) != weight.size(2):
        raise _runtime(f"bilinear(): input2 size does not match weight size: got {input2.size(d2 - 1)} but expected "
                       f"{weight.size(2)}")
    if bias is not None and bias.size(0) != weight.size(0):
        raise _runtime(f"bilinear(): bias size does not match weight size: got {bias.size(0)} but expected "
                       f"{weight.size(0)}")
    if input1._dtype is not weight._dtype or input2._dtype is not weight._dtype:
        raise _runtime(f"expected scalar type {_NAME.get(input1._dtype.name, input1._dtype.name)} but found "
                       f"{_NAME.get(weight._dtype.name, weight._dtype.name)}")
    out_size = tuple(input1._data.shape[:-1]) + (weight.size(0),)
    out = _trilinear(input1.reshape(-1, input1.size(-1)), weight, input2.reshape(-1, input2.size(-1)))
    out = out.reshape(out_size)
    if bias is not None:
        out = out + bias
    return out


_NAME = {"float32": "Float", "float64": "Double", "float16": "Half"}


def _sample():
    from ..autograd import dtypes as dt

    rng = np.random.default_rng(3)
    ts = []
    for shape in ((3, 2), (3, 4), (5, 2, 4), (5,)):
        t = Tensor._from_data(rng.uniform(-1, 1, size=shape), dt.float64)
        t.requires_grad_(True)
        ts.append(t)
    return tuple(ts), {}


register("bilinear", bilinear, "nn", F=("bilinear",), methods=(), nodes=("TrilinearBackward0",),
         formula=TrilinearBackward0.formula, sample=_sample, twice_differentiable=False,
         notes="second derivative not supported by gradcli")
