"""Pointwise ops of three tensors: ``addcmul``, ``addcdiv`` and the in-place ``addcmul_``, ``addcdiv_``,
``lerp_`` (what torch.optim's update loops use: ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 -
beta2)``, ``param.addcdiv_(exp_avg, denom, value=-step_size)``, ``exp_avg.lerp_(grad, 1 - beta1)``).

Values as PyTorch's CPU kernels compute them (ATen/native/cpu/PointwiseOpsKernel.cpp, measured against
PyTorch 2.13 for float32 and float64, tests/ops/test_pointwise.py):

* ``addcmul``: ``self + value * t1 * t2`` is ``fma(value * t1, t2, self)``: the product ``value * t1``
  rounded, then one fused multiply-add (GCC contracts the kernel's expression in both of its loops);
* ``addcdiv``: ``self + value * t1 / t2``, each operation rounded in turn (no contraction: a division);
* ``value`` is converted to the op's dtype first (``value.to<scalar_t>()``).

Derivatives (tools/autograd/derivatives.yaml): addcmul ``self: grad; tensor1: grad * (tensor2 * value);
tensor2: grad * (tensor1 * value)``; addcdiv ``self: grad; tensor1: grad * (value / tensor2); tensor2:
-grad * (value * tensor1 / (tensor2 * tensor2))``, each saving what it needs as PyTorch's nodes do
(``_saved_tensor1`` only when tensor2 needs a gradient ...).
"""

from __future__ import annotations

import numpy as np

from ..autograd import fma as _fma
from ..errors import ArgumentTypeError, error_class
from ._core import Node, Tensor, broadcast_shapes, dt, record, result_dtype, saved
from .inplace import apply_inplace, _dispatches
from .registry import register

__all__ = ["addcmul", "addcdiv", "addcmul_", "addcdiv_"]  # lerp_: ops/inplace.py

_FMA_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

_ADDCDIV_INT = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def _check(fn: str, input, tensor1, tensor2, value) -> dt.dtype:
    for pos, name, x in ((1, "input", input), (2, "tensor1", tensor1), (3, "tensor2", tensor2)):
        if not isinstance(x, Tensor):
            raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, "
                                    f"not {type(x).__name__}")
    if isinstance(value, Tensor) or not isinstance(value, (bool, int, float)):
        raise ArgumentTypeError(f"{fn}(): argument 'value' must be Number, not {type(value).__name__}")
    broadcast_shapes(input._data.shape, tensor1._data.shape, tensor2._data.shape)
    return result_dtype(input, tensor1, tensor2)


def _cast(a: np.ndarray, npd) -> np.ndarray:
    return a if a.dtype == npd else a.astype(npd)


class AddcmulBackward0(Node):
    __slots__ = ("value",)
    formula = "self: grad; tensor1: grad * (tensor2 * value); tensor2: grad * (tensor1 * value)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        v = self.value
        return (g if n[0] else None,
                g * (self._unpack(1) * v) if n[1] else None,
                g * (self._unpack(0) * v) if n[2] else None)


class AddcdivBackward0(Node):
    __slots__ = ("value",)
    formula = "self: grad; tensor1: grad * (value / tensor2); tensor2: -grad * (value * tensor1 / (tensor2 * tensor2))"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        v = self.value
        t2 = self._unpack(1)
        return (g if n[0] else None,
                g * (v / t2) if n[1] else None,
                -g * (v * self._unpack(0) / (t2 * t2)) if n[2] else None)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2`` elementwise, broadcast and promoted (AddcmulBackward0); for float32/
    float64 one fused multiply-add ``fma(value * tensor1, tensor2, input)`` as PyTorch's kernel.  TypeError for a
    non-tensor operand or a non-number value; shape error when they do not broadcast."""
    dtype = _check("addcmul", input, tensor1, tensor2, value)
    npd = dtype.np
    a, b, c = _cast(input._data, npd), _cast(tensor1._data, npd), _cast(tensor2._data, npd)
    with np.errstate(all="ignore"):
        if npd in _FMA_DTYPES:
            vb = b if value == 1 else np.multiply(b, npd.type(value))
            data = _fma.fma(vb, c, a, npd)
        else:
            data = (a + value * b * c).astype(npd)
    out, node = record(AddcmulBackward0, data, dtype, (input, tensor1, tensor2))
    if node is not None:
        node.value = value
        node._save(saved(tensor1, tensor2._requires_grad), saved(tensor2, tensor1._requires_grad))
    return out


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2`` elementwise, broadcast and promoted, each step rounded as PyTorch's
    kernel (AddcdivBackward0).  Integer tensor1 and tensor2: PyTorch's runtime error; TypeError and shape
    errors as addcmul."""
    dtype = _check("addcdiv", input, tensor1, tensor2, value)
    if not tensor1._dtype.is_floating_point and not tensor2._dtype.is_floating_point:
        raise error_class("runtime")(_ADDCDIV_INT)
    npd = dtype.np
    a, b, c = _cast(input._data, npd), _cast(tensor1._data, npd), _cast(tensor2._data, npd)
    with np.errstate(all="ignore"):
        vb = b if value == 1 else np.multiply(b, npd.type(value) if dtype.is_floating_point else value)
        data = np.add(a, np.divide(vb, c, dtype=npd), dtype=npd)
    out, node = record(AddcdivBackward0, data, dtype, (input, tensor1, tensor2))
    if node is not None:
        node.value = value
        node._save(saved(tensor1, tensor2._requires_grad),
                   saved(tensor2, tensor1._requires_grad or tensor2._requires_grad))
    return out


def addcmul_(self, tensor1, tensor2, *, value=1):
    """In-place addcmul (AddcmulBackward0): ``self += value * tensor1 * tensor2``."""
    return apply_inplace(self, lambda old: addcmul(old, tensor1, tensor2, value=value),
                         autograd_inputs=_dispatches(tensor1, False) or _dispatches(tensor2, False))


def addcdiv_(self, tensor1, tensor2, *, value=1):
    """In-place addcdiv (AddcdivBackward0): ``self += value * tensor1 / tensor2``."""
    return apply_inplace(self, lambda old: addcdiv(old, tensor1, tensor2, value=value),
                         autograd_inputs=_dispatches(tensor1, False) or _dispatches(tensor2, False))


def _f64(*shape, lo=-1.0, hi=1.0, seed=0):
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    t = Tensor._from_data(rng.uniform(lo, hi, size=shape), dt.float64)
    t.requires_grad_(True)
    return t


register("addcmul", addcmul, "pointwise", nodes=("AddcmulBackward0",), formula=AddcmulBackward0.formula,
         sample=lambda: ((_f64(2, 3), _f64(3, seed=1), _f64(2, 3, seed=2)), {"value": 0.5}))
register("addcdiv", addcdiv, "pointwise", nodes=("AddcdivBackward0",), formula=AddcdivBackward0.formula,
         sample=lambda: ((_f64(2, 3), _f64(3, seed=1), _f64(2, 3, lo=0.5, hi=2.0, seed=2)), {"value": -1.5}))
register("addcmul_", addcmul_, "inplace", torch=(), nodes=("AddcmulBackward0",), formula="as addcmul")
register("addcdiv_", addcdiv_, "inplace", torch=(), nodes=("AddcdivBackward0",), formula="as addcdiv")
