"""``F.bilinear`` / ``torch.bilinear`` (ATen's composite: ``_trilinear`` of the flattened inputs,
TrilinearBackward0, then ``reshape`` and ``+ bias``).

``y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]``: PyTorch's checks and messages (``bilinear():
input2 size does not match weight size: got 2 but expected 3`` ...); ``input.reshape(-1, features)``
(ViewBackward0 for a contiguous input), TrilinearBackward0 (edges x1, weight, x2), ``reshape`` back and
AddBackward0 for the bias.  Values: summed in float64 and rounded once (PyTorch's ``_trilinear`` sums
pairwise products in float32 in its own order), within SPEC §1's tolerance; the backward likewise.  The
second derivative (a backward with create_graph=True through TrilinearBackward0) is not supported by gradcli.
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
        g = grads[0]._data.astype(np.float64)
        a, b, c = (t._data.astype(np.float64) for t in (x1, w, x2))
        dtype = x1._dtype
        n = self._needs
        outs = (np.einsum("bo,oij,bj->bi", g, b, c) if n[0] else None,
                np.einsum("bo,bi,bj->oij", g, a, c) if n[1] else None,
                np.einsum("bo,bi,oij->bj", g, a, b) if n[2] else None)
        return tuple(None if o is None else Tensor._from_data(np.ascontiguousarray(o, dtype=dtype.np), dtype)
                     for o in outs)


def _trilinear(x1: Tensor, w: Tensor, x2: Tensor) -> Tensor:
    check_numel(x1._data.shape[0] * w._data.shape[0])
    data = np.einsum("bi,oij,bj->bo", x1._data.astype(np.float64), w._data.astype(np.float64),
                     x2._data.astype(np.float64))
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
