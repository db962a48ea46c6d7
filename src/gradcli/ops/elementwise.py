"""Elementwise ops: arithmetic, comparisons, unary math, clamp/maximum/minimum/where.

Each op's forward and its backward node sit together.  Derivative rules are
PyTorch's (tools/autograd/derivatives.yaml), written with gradcli's own
differentiable ops so ``create_graph=True`` gives higher derivatives.
Broadcasting is undone by the engine, so rules are shape-naive.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ArgumentTypeError
from ..autograd import fma as _fma
from ..autograd import zerotensor as _zt
from ..autograd import batching as _batching
from . import parallel as _parallel
from ._core import Node, SavedTensor, Tensor, dt, mode, record, record_with_number, result_dtype, saved, shape_error
from ._core import _fw
from .reduction import check_out_variant as _check_out_variant
from .registry import REGISTRY, register

_SCALARS = (bool, int, float)


def _runtime_error(msg: str):
    """A ``runtime`` GradcliError (a bare RuntimeError raised here would be reported as an internal bug)."""
    from ..errors import error_class

    return error_class("runtime")(msg)


def _arr(x):
    return x._data if isinstance(x, Tensor) else x


def _t(x):
    return x if isinstance(x, Tensor) else None


def _compute(npfn, a, b, dtype):
    ad = a._data if isinstance(a, Tensor) else a
    bd = b._data if isinstance(b, Tensor) else b
    npd = dtype.np
    try:
        if dtype.category == 0:
            out = _parallel.binary(npfn, ad, bd)
        elif type(ad) is np.ndarray and ad.dtype is npd and (
                (type(bd) is np.ndarray and bd.dtype is npd) or (type(bd) is float and dtype.category == 2)):
            # already the result dtype (numpy keeps Python floats weak): skip the cast machinery
            out = _parallel.binary(npfn, ad, bd)
        else:
            out = _parallel.binary(npfn, ad, bd, npd)
    except ValueError:
        raise shape_error(np.shape(ad), np.shape(bd)) from None
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    return out


def _check_operands(a, b):
    if not isinstance(a, (Tensor,) + _SCALARS) or not isinstance(b, (Tensor,) + _SCALARS):
        bad = b if isinstance(a, (Tensor,) + _SCALARS) else a
        raise ArgumentTypeError(f"unsupported operand type(s): expected a Tensor or a number, got {type(bad).__name__}")


def _binary_dtype(a, b):
    # fast path: same dtype tensors, or float tensor with a Python number
    if isinstance(a, Tensor):
        if isinstance(b, Tensor):
            if a._dtype is b._dtype:
                return a._dtype
        elif type(b) is float or type(b) is int:
            if a._dtype.is_floating_point:
                return a._dtype
    _check_operands(a, b)
    return result_dtype(a, b)


# --- add / sub ------------------------------------------------------------------------


class AddBackward0(Node):
    __slots__ = ("alpha",)
    formula = "self: grad; other: grad * alpha"

    def apply(self, grads):
        g = grads[0]
        a = self.alpha
        return (g, g if a == 1 else g * a)


class SubBackward0(Node):
    __slots__ = ("alpha",)
    formula = "self: grad; other: -grad * alpha"

    def apply(self, grads):
        g = grads[0]
        a = self.alpha
        return (g, -g if a == 1 else g * -a)


class RsubBackward1(Node):
    __slots__ = ("alpha",)
    formula = "self: -grad * alpha"

    def apply(self, grads):
        g = grads[0]
        return (-g if self.alpha == 1 else g * -self.alpha,)


def _check_alpha(op: str, alpha, dtype) -> None:
    """PyTorch's alpha checks (alpha_check): a Number; no float alpha for an integral or bool result (runtime),
    no bool alpha for a non-bool one."""
    if alpha == 1 and type(alpha) is int:
        return
    if not isinstance(alpha, _SCALARS):
        raise ArgumentTypeError(f"{op}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    if isinstance(alpha, bool):
        if dtype is not dt.bool_:
            raise _runtime_error("Boolean alpha only supported for Boolean results.")
    elif isinstance(alpha, float) and not dtype.is_floating_point:
        raise _runtime_error("For integral input tensors, argument alpha must not be a floating point number.")


_FMA_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _fma_alpha(input: Tensor, other: Tensor, alpha, dtype) -> np.ndarray:
    """``input + alpha * other`` of two tensors as PyTorch's float kernel computes it: one fused multiply-add,
    ``fma(other, alpha, input)``, rounded once in the op's dtype (both loops of add_kernel, measured:
    autograd/fma.py); the operands are cast to that dtype first, as TensorIterator does."""
    npd = dtype.np
    a, b = input._data, other._data
    if a.dtype != npd:
        a = a.astype(npd)
    if b.dtype != npd:
        b = b.astype(npd)
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise shape_error(a.shape, b.shape) from None
    return _fma.fma(b, npd.type(alpha), a, npd)


def add(input, other, *, alpha=1):
    """input + alpha * other, with broadcasting and type promotion (AddBackward0).  Raises runtime for a float
    alpha with an integral result or a bool alpha with a non-bool one; TypeError for a non-number alpha."""
    dtype = _binary_dtype(input, other)
    _check_alpha("add", alpha, dtype)
    if not isinstance(input, Tensor):
        input, other = other, input
    if alpha != 1 and type(other) is Tensor and dtype.np in _FMA_DTYPES:
        data = _fma_alpha(input, other, alpha, dtype)
    else:
        o = other if alpha == 1 else (other * alpha if isinstance(other, Tensor) else other * alpha)
        data = _compute(np.add, input, o, dtype)
    out, node = record(AddBackward0, data, dtype, (input, _t(other)))
    if node is not None:
        node.alpha = alpha
    return out


def sub(input, other, *, alpha=1):
    """input - alpha * other (SubBackward0); a Python number minus a tensor is rsub (RsubBackward1)."""
    dtype = _binary_dtype(input, other)
    if not isinstance(input, Tensor):
        return rsub(other, input, alpha=alpha)
    _check_alpha("sub", alpha, dtype)
    if input._dtype is dt.bool_ or isinstance(other, bool) or (isinstance(other, Tensor) and other._dtype is dt.bool_):
        raise _runtime_error("Subtraction, the `-` operator, with a bool tensor is not supported.")
    if alpha != 1 and type(other) is Tensor and dtype.np in _FMA_DTYPES:
        data = _fma_alpha(input, other, -alpha, dtype)  # PyTorch's sub is add with -alpha
    else:
        o = other if alpha == 1 else other * alpha
        data = _compute(np.subtract, input, o, dtype)
    out, node = record(SubBackward0, data, dtype, (input, _t(other)))
    if node is not None:
        node.alpha = alpha
    return out


def rsub(input, other, *, alpha=1):
    """other - alpha * input (RsubBackward1 when other is a number)."""
    dtype = _binary_dtype(input, other)
    if isinstance(other, Tensor):
        return sub(other, input, alpha=alpha)
    _check_alpha("rsub", alpha, dtype)
    if input._dtype is dt.bool_ or isinstance(other, bool):
        raise _runtime_error("Subtraction, the `-` operator, with a bool tensor is not supported.")
    i = input if alpha == 1 else input * alpha
    data = _compute(np.subtract, other, i, dtype)
    if input._inference and not mode.inference:
        # PyTorch: an inference tensor skips autograd, and rsub.Scalar decomposes below it into sub.Tensor with
        # the number wrapped in a normal tensor, which autograd does see: SubBackward0(number, input)
        out, node = record(SubBackward0, data, dtype, (None, input))
    else:
        out, node = record(RsubBackward1, data, dtype, (input,))
    if node is not None:
        node.alpha = alpha
    return out


# --- mul / div --------------------------------------------------------------------------


class MulBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad * other; other: grad * self"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        return (g * self._unpack(1) if n[0] else None,
                g * self._unpack(0) if len(n) > 1 and n[1] else None)


def mul(input, other):
    """input * other, elementwise with broadcasting (MulBackward0)."""
    k = type(other)
    if (k is float or k is int and -16777216 <= other <= 16777216) and type(input) is Tensor \
            and input._dtype.category == 2:
        # hot path (issue 9: a float tensor times a Python float or small int, also every such backward
        # step): what the general path computes, without its dispatch (numpy keeps the number weak: input's
        # dtype; an int is converted exactly as with dtype=)
        d = input._data
        data = np.multiply(d, other) if d.size < _parallel.PARALLEL_MIN else _parallel.binary(np.multiply, d, other)
        out, node = record_with_number(MulBackward0, data, input._dtype, input)
        if node is not None:
            node._save(None, other if input._requires_grad or _fw.dual_op else None)
        return out
    dtype = _binary_dtype(input, other)
    if not isinstance(input, Tensor):
        input, other = other, input
    data = _compute(np.multiply, input, other, dtype)
    out, node = record(MulBackward0, data, dtype, (input, _t(other)))
    if node is not None:
        node._save(saved(input, isinstance(other, Tensor) and other._requires_grad),
                   saved(other, input._requires_grad))
    return out


class DivBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad / other; other: -grad * ((self / other) / other)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        other = self._unpack(1)
        ga = g / other if n[0] else None
        gb = None
        if len(n) > 1 and n[1]:
            # PyTorch's div_tensor_other_backward, in its order (the rounding of a float32 gradient shows once
            # it is cast to a float64 other)
            gb = -g * ((self._unpack(0) / other) / other)
        return (ga, gb)


def _div_dtype(input, other):
    d = _binary_dtype(input, other)
    return d if d.is_floating_point else dt.get_default_dtype()


class DivBackward2(Node):
    """div with a rounding_mode: the result is piecewise constant, so both gradients are zero.  PyTorch
    saves self and other all the same, so a second backward without retain_graph fails."""

    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: zeros_like(grad); other: zeros_like(grad)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        self._unpack(0)  # second_backward once released
        return (_zeros(g) if n[0] else None, _zeros(g) if len(n) > 1 and n[1] else None)


def div(input, other, *, rounding_mode=None):
    """True division input / other (ints give the default float dtype) (DivBackward0); with
    rounding_mode 'floor'/'trunc' the rounded quotient in the inputs' dtype (DivBackward2, zero gradients)."""
    if rounding_mode is not None:
        if rounding_mode not in ("floor", "trunc"):
            raise _runtime_error(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                                 f"'{rounding_mode}'")
        prev = mode.enabled
        mode.enabled = False  # the rounded quotient itself records (and saves) nothing
        _fw.busy += 1  # (nor has a tangent: DivBackward2's zeros give it one)
        try:
            if rounding_mode == "floor":
                q = floor_divide(input, other)
            else:
                _check_int_divisor(input, other, _binary_dtype(input, other))
                q = div(input, other).trunc()
                if not _binary_dtype(input, other).is_floating_point:
                    q = q.to(_binary_dtype(input, other))
        finally:
            mode.enabled = prev
            _fw.busy -= 1
        out, node = record(DivBackward2, q._data, q._dtype, (_t(input), _t(other)))
        if node is not None:
            node._save(saved(input), saved(other))
        return out
    if not isinstance(input, Tensor):
        return mul(reciprocal(other), input)
    dtype = _div_dtype(input, other)
    data = _compute(np.true_divide, input, other, dtype)
    out, node = record(DivBackward0, data, dtype, (input, _t(other)))
    if node is not None:
        node._save(saved(input, isinstance(other, Tensor) and other._requires_grad), saved(other))
    return out


def rdiv(input, other):
    """other / input for a Python number ``other`` (PyTorch: reciprocal(input) * other, MulBackward0)."""
    return mul(reciprocal(input), other)


class NotImplemented_(Node):
    __slots__ = ("op",)

    def name(self):
        return "torch::autograd::NotImplemented"

    def apply(self, grads):
        from ..errors import error_class

        raise error_class("runtime")(f"derivative for {self.op} is not implemented")


NotImplemented_.__name__ = "NotImplemented"
NotImplemented_.__qualname__ = "NotImplemented"


def record_not_implemented(op: str, data, dtype, inputs: tuple):
    """Wrap ``data`` under a NotImplemented node for ``op`` (PyTorch: no derivative formula).

    Unlike other nodes it has an edge only for each input that requires grad (PyTorch's
    ``floor_divide(c, a)`` with only ``a`` requiring grad has one edge), and, like PyTorch's
    autograd_not_implemented_fallback node, its sequence number is UINT64_MAX: it runs (and fails) as
    soon as it is ready, before an earlier-created node's gradient reaches a leaf.  ``op``: the ATen
    name in the message ("derivative for aten::floor_divide is not implemented").  Returns (out, node)."""
    if _fw.level is not None:
        from ..autograd.forward_ad import input_tangents

        if input_tangents(tuple(t if isinstance(t, Tensor) else None for t in inputs)) is not None:
            from ..errors import error_class

            raise error_class("runtime")(
                f"Trying to use forward AD with {op if op.startswith('aten::') else 'aten::' + op} that does not "
                "support it.", torch_type=NotImplementedError)
    out, node = record(NotImplemented_, data, dtype,
                       tuple(t for t in inputs if isinstance(t, Tensor) and t.requires_grad),
                       wrapped_number=not all(isinstance(t, Tensor) for t in inputs))
    if node is not None:
        node.op = op if op.startswith("aten::") else "aten::" + op
        node._seq = float("inf")
    return out, node


def _check_int_divisor(input, other, dtype) -> None:
    """Integer floor/trunc division and remainder by zero: PyTorch's runtime error 'ZeroDivisionError'
    (numpy would give 0)."""
    if dtype.category != 1:
        return
    b = other._data if isinstance(other, Tensor) else other
    if np.any(np.asarray(b) == 0) and np.broadcast_shapes(np.shape(_arr(input)), np.shape(b)).count(0) == 0:
        raise _runtime_error("ZeroDivisionError")


def floor_divide(input, other):
    """input // other, rounding toward negative infinity; not differentiable (as PyTorch).  Raises runtime
    for bool operands and for an integer division by zero."""
    dtype = _binary_dtype(input, other)
    if dtype is dt.bool_:
        raise _runtime_error('"div_floor_cpu" not implemented for \'Bool\'')
    _check_int_divisor(input, other, dtype)
    data = _compute(np.floor_divide, input, other, dtype)
    out, _ = record_not_implemented("floor_divide", data, dtype, (input, other))
    return out


class RemainderBackward0(Node):
    """remainder(Tensor, Scalar): the gradient passes to self."""

    __slots__ = ()
    formula = "self: grad"

    def apply(self, grads):
        return (grads[0] if self._needs[0] else None,)


class RemainderBackward1(Node):
    """remainder(Tensor, Tensor); self and other are saved only when other requires grad."""

    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad; other: -grad * self.div(other, rounding_mode='floor')"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        gb = None
        if len(n) > 1 and n[1]:
            gb = -g * div(self._unpack(0), self._unpack(1), rounding_mode="floor")
        return (g if n[0] else None, gb)


def _remainder_np(a, b, dtype=None):
    """PyTorch's remainder: fmod, moved to the divisor's sign when they differ (a zero keeps fmod's sign,
    where numpy's remainder gives the divisor's: remainder(0., -1.) is 0. in PyTorch)."""
    a, b = np.asarray(a), np.asarray(b)
    if dtype is not None:
        a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    if a.dtype.kind != "f" and b.dtype.kind != "f":
        return _parallel.binary(np.remainder, a, b)
    m = np.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


def remainder(input, other):
    """Python-style modulus (sign of the divisor): RemainderBackward0 for a number, RemainderBackward1 for a
    tensor divisor."""
    dtype = _binary_dtype(input, other)
    if dtype is dt.bool_:
        raise _runtime_error('"remainder_cpu" not implemented for \'Bool\'')
    _check_int_divisor(input, other, dtype)
    data = _compute(_remainder_np, input, other, dtype)
    if not isinstance(input, Tensor):  # number % tensor: PyTorch has no derivative for it (NotImplemented)
        out, _ = record_not_implemented("remainder", data, dtype, (other,))
        return out
    if not isinstance(other, Tensor):
        if input._inference and not mode.inference:
            # PyTorch: remainder.Scalar of an inference tensor decomposes below autograd into remainder.Tensor
            # with the number wrapped in a normal tensor, which autograd does see (RemainderBackward1)
            out, _ = record(RemainderBackward1, data, dtype, (input, None))
        else:
            out, _ = record(RemainderBackward0, data, dtype, (input,))
        return out
    out, node = record(RemainderBackward1, data, dtype, (input, other))
    if node is not None and (other._requires_grad or _fw.dual_op):
        node._save(saved(input), saved(other))
    return out


# --- pow --------------------------------------------------------------------------------


class PowBackward0(Node):
    __slots__ = ("exponent",)
    formula = "self: grad * exponent * self.pow(exponent - 1)  (0 where exponent == 0)"

    def apply(self, grads):
        g = grads[0]
        e = self.exponent
        s = self._unpack(0)  # saved even for exponent 0 (second_backward once released, as PyTorch)
        if e == 0:
            from .creation import zeros_like

            return (zeros_like(g),)
        return (g * (s.pow(e - 1) * e),)


class PowBackward1(Node):
    __slots__ = ()
    _pack_order = (1, 0, 2)  # PyTorch saves inputs by name
    formula = ("self: grad * exponent * self.pow(exponent - 1); exponent: grad * result * self.log() "
               "(0 where self == 0 and exponent >= 0)")

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        s = self._unpack(0)
        e = self._unpack(1)
        self._unpack(2)  # the result: PyTorch's generated apply unpacks every saved variable
        ga = gb = None
        if n[0]:
            ga = g * (e * s.pow(e - 1))
            ga = where((e == 0), 0.0, ga)
        if n[1]:
            # PyTorch's pow_backward_exponent: grad * where(self == 0 & exponent >= 0, 0, result * log(self)),
            # self cast to the result dtype before its log (a float32 base with a float64 exponent)
            r = s.pow(e)
            s_ = s if s._dtype is r._dtype else s.to(r._dtype)
            gb = g * where((s == 0) & (e >= 0), 0.0, r * s_.log())
        return (ga, gb)


class PowBackward2(Node):
    __slots__ = ("base",)
    formula = "exponent: grad * result * log(self)  (self a number; 0 where self == 0 and exponent >= 0)"

    def apply(self, grads):
        # PyTorch saves exponent and result (pow_backward_exponent(grad, self, exponent, result)): an in-place
        # change of the result fails the backward
        g = grads[0]
        e = self._unpack(0)
        r = self._unpack(1)
        b = self.base
        if b == 0:
            return (where(e >= 0, 0.0, g * (r * math.log(b) if b > 0 else float("nan"))),)
        return (g * (r * math.log(b)) if b > 0 else g * float("nan"),)


def _int_power(a, b, dtype=None):
    """PyTorch's integer pow (powi) for a tensor exponent: base**exp for exp >= 0 (wrapping around as repeated
    multiplication does); for exp < 0, 1 for base 1, (-1)**exp for base -1 and 0 otherwise, 0**-1 included.
    numpy refuses negative integer powers (ValueError); PyTorch refuses only a negative *number* exponent."""
    a = np.asarray(a, dtype=dtype)
    b = np.asarray(b, dtype=dtype)
    neg = b < 0
    if not neg.any():
        return np.power(a, b)
    a, b = np.broadcast_arrays(a, b)
    neg = np.broadcast_to(neg, b.shape)
    out = np.power(a, np.where(neg, 0, b))
    odd = (b & 1) == 1
    small = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0)).astype(out.dtype)
    return np.where(neg, small, out)


#: PyTorch's pow_tensor_scalar_optimized_kernel: these exponents are not pow() but sqrt, rsqrt, products and
#: reciprocals, which differ from pow in the last bit (x ** 3: a quarter of normal float32 inputs) and at -0.0
#: and -inf ((-0.0) ** -0.5 is -inf, (-inf) ** -0.5 nan)
_POW_SPECIAL = {
    0.5: np.sqrt,
    -0.5: lambda a: 1 / np.sqrt(a),
    2: np.square,
    3: lambda a: a * a * a,
    -1: lambda a: 1 / a,
    -2: lambda a: 1 / (a * a),
}


def pow(input, exponent):
    """input ** exponent (PowBackward0 for a number exponent, PowBackward1 for tensors, PowBackward2 for a
    number base).  Integer tensors to non-negative integer powers stay integer."""
    if not isinstance(input, Tensor):
        dtype = _binary_dtype(input, exponent)
        data = _compute(_int_power if dtype.category == 1 else np.power, input, exponent, dtype)
        out, node = record(PowBackward2, data, dtype, (exponent,))
        if node is not None:
            node.base = input
            node._save(saved(exponent), SavedOutput(out))
        return out
    dtype = _binary_dtype(input, exponent)
    if isinstance(exponent, Tensor):
        data = _compute(_int_power if dtype.category == 1 else np.power, input, exponent, dtype)
        out, node = record(PowBackward1, data, dtype, (input, exponent))
        if node is not None:
            # PyTorch saves (and unpacks, version-checked) the result too, for pow_backward_exponent
            node._save(saved(input), saved(exponent), SavedOutput(out))
        return out
    if not dtype.is_floating_point and exponent < 0:
        from ..errors import error_class

        raise error_class("runtime")("Integers to negative integer powers are not allowed.")
    if dtype.is_floating_point and exponent in _POW_SPECIAL:
        a = input._data if input._data.dtype == dtype.np else input._data.astype(dtype.np)
        with np.errstate(all="ignore"):
            data = np.asarray(_POW_SPECIAL[exponent](a), dtype=dtype.np)
    else:
        data = _compute(np.power, input, exponent, dtype)
    out, node = record(PowBackward0, data, dtype, (input,))
    if node is not None:
        node.exponent = exponent
        node._save(saved(input))
    return out


def rpow(input, other):
    """other ** input for a Python number ``other`` (PowBackward2)."""
    return pow(other, input)


def square(input):
    """input ** 2 (PowBackward0)."""
    return pow(input, 2)


# --- unary ops -----------------------------------------------------------------------------


def _float_dtype(t: Tensor):
    return t._dtype if t._dtype.is_floating_point else dt.get_default_dtype()


_F64_BLOCK = 1 << 16


def _rounded_f32(npfn, scalar_tail: bool = False):
    """npfn for float32 evaluated in float64 and rounded once to float32 (other dtypes: npfn itself).

    numpy's float32 SIMD exp/log/sin/tanh... are off by an ulp or more for a large share of inputs (exp: 40% of
    standard-normal float32 values differ from PyTorch 2.13's), where PyTorch's kernels (SLEEF u10, glibc)
    are nearly always correctly rounded (exp: 1% differ this way); an ulp shows in printed output after a
    cancellation (log_softmax's backward of equal inputs).  Blocks of 65,536 elements keep the float64
    temporaries small.  scalar_tail: PyTorch's vectorized loop runs 16 float32 elements at a time and the rest
    (the last size % 16, in memory order) through the C library's float function, which numpy's float32
    function matches (sinh, cosh: measured against PyTorch 2.13)."""
    f32 = np.dtype(np.float32)

    def fn(a):
        if a.dtype != f32:
            return npfn(a)
        if scalar_tail and a.size % 16:
            head = a.size - a.size % 16
            out = np.empty(a.shape, dtype=f32)
            flat_in, flat_out = np.ascontiguousarray(a).reshape(-1), out.reshape(-1)
            flat_out[head:] = npfn(flat_in[head:])
            if head:
                flat_out[:head] = fn_whole(flat_in[:head])
            return out
        return fn_whole(a)

    def blocks(flat_in, flat_out):
        buf = np.empty(_F64_BLOCK, dtype=np.float64)  # one float64 block, reused: no allocation per block
        with np.errstate(all="ignore"):
            for i in range(0, flat_in.size, _F64_BLOCK):
                b = buf[:min(_F64_BLOCK, flat_in.size - i)]
                b[...] = flat_in[i:i + _F64_BLOCK]
                npfn(b, out=b)
                flat_out[i:i + _F64_BLOCK] = b  # rounded to float32 once

    def fn_whole(a):
        if a.size <= _F64_BLOCK:
            return npfn(a.astype(np.float64)).astype(f32)
        out = np.empty(a.shape, dtype=f32)
        flat_in, flat_out = a.reshape(-1), out.reshape(-1)
        if a.size < _parallel.PARALLEL_MIN:
            blocks(flat_in, flat_out)
        else:  # a large array: the second half on another thread, as PyTorch's kernels use the machine's cores
            _parallel.run(lambda lo, hi: blocks(flat_in[lo:hi], flat_out[lo:hi]), a.size)
        return out

    fn.__name__ = getattr(npfn, "__name__", "fn")
    return fn


def _unary(name, npfn, rule, formula, *, save="self", keeps_int=False, node_name=None, methods=None,
           torch_names=None, sample_domain=None, out_variant: bool = False):
    """Define and register a unary op: forward npfn, backward ``rule(grad, self, result)``.

    out_variant: PyTorch computes the op through its ``out=`` kernel, which autograd refuses for an inference
    tensor that requires grad outside inference_mode (reduction.check_out_variant)."""
    node_cls = type(node_name or f"{name.capitalize()}Backward0", (Node,), {
        "__slots__": (), "formula": formula,
        "apply": (lambda self, grads: (rule(grads[0], self._unpack(0) if save in ("self", "both") else None,
                                            self._unpack(0) if save == "result" else
                                            self._unpack(1) if save == "both" else None),)),
    })
    node_cls.__module__ = __name__

    def fn(input):
        if not isinstance(input, Tensor):
            raise ArgumentTypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        if input._dtype is dt.bool_ and name in _BOOL_REFUSED:
            raise _runtime_error(_BOOL_REFUSED[name])
        if out_variant:
            _check_out_variant(input, name)
        dtype = input._dtype if keeps_int else _float_dtype(input)
        d = input._data
        if d.dtype != dtype.np:
            d = d.astype(dtype.np)
        data = _parallel.unary(npfn, d)
        if type(data) is not np.ndarray:
            data = np.asarray(data, dtype=dtype.np)
        out, node = record(node_cls, data, dtype, (input,))
        if node is not None:
            if save == "self":
                node._save(saved(input))
            elif save == "result":
                node._save(SavedOutput(out))
            elif save == "both":
                node._save(saved(input), SavedOutput(out))
        return out

    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} ({node_cls.__name__}: {formula})."
    register(name, fn, "elementwise", torch=torch_names or (name,), methods=methods or (name,),
             nodes=(node_cls.__name__,), formula=formula, sample=sample_domain or "any")
    return fn, node_cls


#: unary ops PyTorch refuses on bool tensors (the kernels have no Bool variant), with its message
_BOOL_REFUSED = {
    "abs": '"abs_cpu" not implemented for \'Bool\'',
    "neg": "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.",
    "relu": "Boolean inputs not supported for relu",
    "floor": '"floor_vml_cpu" not implemented for \'Bool\'',
    "ceil": '"ceil_vml_cpu" not implemented for \'Bool\'',
    "round": '"round_vml_cpu" not implemented for \'Bool\'',
    "trunc": '"trunc_vml_cpu" not implemented for \'Bool\'',
    "frac": '"frac_cpu" not implemented for \'Bool\'',
}


def _sign_np(d):
    """sign as PyTorch: a bool tensor is its own sign, and sign(nan) is 0 (numpy: nan)."""
    if d.dtype == np.bool_:
        return d.copy()
    r = np.asarray(np.sign(d))
    if r.dtype.kind == "f" and np.isnan(r).any():
        r = np.where(np.isnan(r), r.dtype.type(0), r)
    return r


def SavedOutput(t):
    """The op's result, saved (SavedVariable with is_output=True)."""
    return SavedTensor(t, is_output=True)


def _zeros(g):
    from .creation import zeros_like

    return zeros_like(g)


neg, NegBackward0 = _unary("neg", np.negative, lambda g, s, r: -g, "self: -grad", save=None, keeps_int=True,
                           methods=("neg", "negative"), torch_names=("neg", "negative"))
_exp_f32 = _rounded_f32(np.exp)  # torch.exp's float32 kernel; sigmoid's exp too
exp, ExpBackward0 = _unary("exp", _exp_f32, lambda g, s, r: g * r, "self: grad * result", save="result")
log, LogBackward0 = _unary("log", _rounded_f32(np.log), lambda g, s, r: g / s, "self: grad / self", sample_domain="positive")
log1p, Log1PBackward0 = _unary("log1p", _rounded_f32(np.log1p), lambda g, s, r: g / (s + 1), "self: grad / (self + 1)",
                               node_name="Log1PBackward0", sample_domain="positive")
log2, _ = _unary("log2", _rounded_f32(np.log2), lambda g, s, r: g / (s * math.log(2.0)), "self: grad / (self * ln 2)",
                 sample_domain="positive")
log10, _ = _unary("log10", _rounded_f32(np.log10), lambda g, s, r: g / (s * math.log(10.0)), "self: grad / (self * ln 10)",
                  sample_domain="positive")
def _exp2_rule(g, s, r):
    from .nn import _mul_scalar  # (nn imports this module)

    return _mul_scalar(g * r, math.log(2.0))  # grad * result * M_LN2: the last a mul.Scalar (MulBackward1)


exp2, _ = _unary("exp2", np.exp2, _exp2_rule, "self: grad * result * ln 2", save="result")
expm1, _ = _unary("expm1", _rounded_f32(np.expm1), lambda g, s, r: g * (r + 1), "self: grad * (result + 1)", save="result")
sqrt, SqrtBackward0 = _unary("sqrt", np.sqrt, lambda g, s, r: g / (2 * r), "self: grad / (2 * result)",
                             save="result", sample_domain="positive")
rsqrt, _ = _unary("rsqrt", lambda a: 1 / np.sqrt(a), lambda g, s, r: -0.5 * g * r.pow(3),
                  "self: -0.5 * grad * result.pow(3)", save="result", sample_domain="positive")
sin, SinBackward0 = _unary("sin", _rounded_f32(np.sin), lambda g, s, r: g * s.cos(), "self: grad * self.cos()")
cos, CosBackward0 = _unary("cos", _rounded_f32(np.cos), lambda g, s, r: g * -s.sin(), "self: grad * -self.sin()")
tan, TanBackward0 = _unary("tan", np.tan, lambda g, s, r: g * (1 + r * r), "self: grad * (1 + result.pow(2))",
                           save="result")
class TanhBackwardBackward0(Node):
    """The node of tanh_backward(grad_output, output) = grad_output * (1 - output^2), tanh's backward."""

    __slots__ = ()
    formula = "grad_output: tanh_backward(grad, output); output: grad * (-2 * output * grad_output)"

    def apply(self, grads):
        gg = grads[0]
        n = self._needs
        g = self._unpack(0)
        r = self._unpack(1)
        return (tanh_backward(gg, r) if n[0] else None,
                gg * (-2 * r * g) if len(n) > 1 and n[1] else None)


class SigmoidBackwardBackward0(Node):
    """The node of sigmoid_backward(grad_output, output) = grad_output * (1 - output) * output."""

    __slots__ = ()
    formula = "grad_output: sigmoid_backward(grad, output); output: grad * grad_output * (-2 * output + 1)"

    def apply(self, grads):
        gg = grads[0]
        n = self._needs
        g = self._unpack(0)
        r = self._unpack(1)
        return (sigmoid_backward(gg, r) if n[0] else None,
                gg * g * (-2 * r + 1) if len(n) > 1 and n[1] else None)


def _backward_op(node_cls, data, grad_output, output):
    out, node = record(node_cls, data.astype(grad_output._dtype.np, copy=False), grad_output._dtype,
                       (grad_output, output))
    if node is not None:
        node._save(saved(grad_output, output.requires_grad), saved(output))
    return out


def tanh_backward(grad_output, output):
    """grad_output * (1 - output^2) (PyTorch's kernel order), differentiable in both (TanhBackwardBackward0)."""
    r = output._data
    if r.size < _parallel.PARALLEL_MIN:
        data = grad_output._data * (1 - r * r)
    else:  # the same ufuncs, on both cores (ops/parallel.py)
        b = _parallel.binary
        data = b(np.multiply, grad_output._data, b(np.subtract, 1, b(np.multiply, r, r)))
    return _backward_op(TanhBackwardBackward0, data, grad_output, output)


def sigmoid_backward(grad_output, output):
    """grad_output * (1 - output) * output (PyTorch's kernel order), differentiable in both
    (SigmoidBackwardBackward0)."""
    r = output._data
    if r.size < _parallel.PARALLEL_MIN:
        data = grad_output._data * (1 - r) * r
    else:  # the same ufuncs, on both cores (ops/parallel.py)
        b = _parallel.binary
        data = b(np.multiply, b(np.multiply, grad_output._data, b(np.subtract, 1, r)), r)
    return _backward_op(SigmoidBackwardBackward0, data, grad_output, output)


tanh, TanhBackward0 = _unary("tanh", _rounded_f32(np.tanh), lambda g, s, r: tanh_backward(g, r),
                             "self: tanh_backward(grad, result) = grad * (1 - result.pow(2))", save="result")
sinh, _ = _unary("sinh", _rounded_f32(np.sinh, scalar_tail=True), lambda g, s, r: g * s.cosh(), "self: grad * self.cosh()")
cosh, _ = _unary("cosh", _rounded_f32(np.cosh, scalar_tail=True), lambda g, s, r: g * s.sinh(), "self: grad * self.sinh()")
asin, _ = _unary("asin", _rounded_f32(np.arcsin), lambda g, s, r: g * (1 - s * s).rsqrt(), "self: grad * (1 - self^2)^-1/2",
                 sample_domain="unit", methods=("asin", "arcsin"), torch_names=("asin", "arcsin"))
acos, _ = _unary("acos", np.arccos, lambda g, s, r: g * -(1 - s * s).rsqrt(), "self: grad * -(1 - self^2)^-1/2",
                 sample_domain="unit", methods=("acos", "arccos"), torch_names=("acos", "arccos"))
atan, _ = _unary("atan", np.arctan, lambda g, s, r: g / (s * s + 1), "self: grad / (self^2 + 1)",
                 methods=("atan", "arctan"), torch_names=("atan", "arctan"))


def _sigmoid_np(a):
    """The logistic function elementwise in PyTorch's formula, ``1 / (1 + exp(0 - a))`` (ATen's sigmoid
    kernel, vectorized: ``(0 - a).exp() + 1``, then ``reciprocal``), in a's dtype; float16 through float32 (its
    opmath type).  float32's exp is the float64 one rounded (``_rounded_f32``): it agrees with PyTorch's
    SLEEF exp for all but ~1% of values, so ~4% of sigmoid results are an ulp off (the stable two-branch
    formula gradcli had was off in 25-30%); float64: numpy's exp, ~2.6% an ulp off.  A NaN comes out with its
    sign flipped, as PyTorch's (numpy's exp drops a NaN's sign)."""
    if a.dtype == np.float16:
        return _sigmoid_np(a.astype(np.float32)).astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        neg = _parallel.unary(np.negative, a)
        e = _exp_f32(neg) if a.dtype == np.float32 else np.exp(neg)
        out = np.asarray(_parallel.binary(np.true_divide, a.dtype.type(1), _parallel.binary(np.add, e, a.dtype.type(1))))
    if out.size and np.isnan(out.min()):  # (min propagates a NaN: one pass, no mask unless there is one)
        nan = np.isnan(out)
        out[nan] = neg[nan]  # (out is the division's fresh array)
    return out


sigmoid, SigmoidBackward0 = _unary("sigmoid", _sigmoid_np, lambda g, s, r: sigmoid_backward(g, r),
                                   "self: sigmoid_backward(grad, result) = grad * (1 - result) * result",
                                   save="result")


def _relu_np(a):
    # numpy keeps the second operand of a tie: relu(-0.0) is -0.0, as PyTorch's clamp_min keeps the input
    return np.maximum(a.dtype.type(0), a)


def _erf_np(a):
    v = np.vectorize(math.erf, otypes=[np.float64])(a.astype(np.float64)) if a.size else a.astype(np.float64)
    return v.astype(a.dtype)


class ThresholdBackwardBackward0(Node):
    """The node of threshold_backward(grad, self, threshold) = where(self <= threshold, 0, grad), relu's
    backward: differentiable in grad (the same mask) and, with a zero derivative, in self."""

    __slots__ = ("threshold",)
    formula = "grad_output: threshold_backward(grad, self, threshold); self: zeros_like(grad)"

    def apply(self, grads):
        from .creation import zeros_like

        gg = grads[0]
        n = self._needs
        s = self._unpack(0)
        return (threshold_backward(gg, s, self.threshold) if n[0] else None,
                zeros_like(gg) if len(n) > 1 and n[1] else None)


#: float dtype -> the unsigned integer of its size (threshold_backward's bit mask)
_SAME_SIZE_UINT = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64, np.dtype(np.float16): np.uint16}


def threshold_backward(grad, self, threshold):
    """where(self <= threshold, 0, grad) (an inf/nan gradient where self is at or below the threshold gives 0;
    a NaN self lets it through), recorded as ThresholdBackwardBackward0 on (grad, self)."""
    g, x = grad._data, self._data
    bits = _SAME_SIZE_UINT.get(g.dtype)
    if bits is not None and g.ndim and g.shape == x.shape and g.dtype == grad._dtype.np:
        # the same values by the bits, without np.where's slow masked loop (16x here): grad AND a mask of
        # all ones where self > threshold or NaN (not <=), all zeros (+0.0) elsewhere
        with np.errstate(invalid="ignore"):
            m = np.less_equal(x, threshold).astype(bits)
        np.subtract(m, 1, out=m)  # 0 - 1 wraps to all ones: kept
        data = np.bitwise_and(g.view(bits), m, out=m).view(g.dtype)
    else:
        data = np.where(x <= threshold, 0, g).astype(grad._dtype.np, copy=False)
    out, node = record(ThresholdBackwardBackward0, data, grad._dtype, (grad, self))
    if node is not None:
        node.threshold = threshold
        node._save(saved(self))
    return out


def _relu_rule(g, s, r):
    # PyTorch: threshold_backward(grad, result, 0), itself differentiable (ThresholdBackwardBackward0)
    return threshold_backward(g, r, 0)


relu, ReluBackward0 = _unary("relu", _relu_np, _relu_rule, "self: where(result <= 0, 0, grad)",
                             save="result", keeps_int=True)
erf, _ = _unary("erf", _erf_np, lambda g, s, r: g * (2 / math.sqrt(math.pi)) * (-(s * s)).exp(),
                "self: 2/sqrt(pi) * exp(-self^2) * grad")
reciprocal, ReciprocalBackward0 = _unary("reciprocal", lambda a: 1 / a, lambda g, s, r: -g * (r * r),
                                         "self: -grad * (result * result)", save="result",
                                         sample_domain="positive")
abs_, AbsBackward0 = _unary("abs", np.abs, lambda g, s, r: g * sgn(s), "self: grad * self.sgn()",
                            keeps_int=True, methods=("abs", "absolute", "__abs__"), torch_names=("abs", "absolute"),
                            sample_domain="nonzero", out_variant=True)
sign, SignBackward0 = _unary("sign", _sign_np, lambda g, s, r: _zeros(g), "self: zeros_like(grad)", save=None,
                             keeps_int=True)
# sgn: sign extended to complex numbers; on real tensors the values of sign, but its own node, which saves self
# and result (sgn_backward(self, grad, result)): an in-place change of either fails the backward
# (abs's backward is grad * self.sgn(), so abs's double backward goes through SgnBackward0)
sgn, SgnBackward0 = _unary("sgn", _sign_np, lambda g, s, r: _zt.mark(_zeros(g)),
                           "self: _efficientzerotensor (real self: an immutable ZeroTensor)",
                           keeps_int=True, save="both")
floor, _ = _unary("floor", np.floor, lambda g, s, r: _zeros(g), "self: zeros_like(grad)", save=None,
                  keeps_int=True)
ceil, _ = _unary("ceil", np.ceil, lambda g, s, r: _zeros(g), "self: zeros_like(grad)", save=None, keeps_int=True)
round_, _ = _unary("round", np.round, lambda g, s, r: _zeros(g), "self: zeros_like(grad)", save=None,
                   keeps_int=True)


class RoundBackward1(Node):
    __slots__ = ()
    formula = "self: zeros_like(grad)"

    def apply(self, grads):
        return (_zeros(grads[0]),)


def round_decimals(input, *, decimals=None):
    """round(input) (RoundBackward0), or to ``decimals`` decimal places as PyTorch computes it in the
    tensor's own dtype: rint(x * 10**d) / 10**d, or rint(x / 10**-d) * 10**-d (RoundBackward1)."""
    if decimals is None:
        return round_(input)
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"round(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if isinstance(decimals, Tensor) and decimals._data.size == 1 and decimals._dtype.category == 1:
        decimals = int(decimals._data.reshape(()))  # PyTorch's parser takes a one-element integer tensor as an int
    if isinstance(decimals, bool) or not isinstance(decimals, int):  # PyTorch's parser: an int, nothing else
        raise ArgumentTypeError("round(): argument 'decimals' must be int, not "
                        f"{getattr(type(decimals), '_gradcli_type_name', None) or type(decimals).__name__}")
    if not -(1 << 63) <= decimals < (1 << 63):
        raise _runtime_error("Overflow when unpacking long long")
    if not input._dtype.is_floating_point:
        raise _runtime_error(f'"round_cpu" not implemented for \'{_TYPE_NAMES.get(input._dtype.name, input._dtype.name)}\'')
    try:
        ten = input._dtype.np.type(10.0 ** abs(int(decimals)))
    except OverflowError:  # |decimals| > 308: PyTorch's power is inf too, and the result nan
        ten = input._dtype.np.type(np.inf)
    d = input._data
    data = np.rint(d * ten) / ten if decimals >= 0 else np.rint(d / ten) * ten
    out, _ = record(RoundBackward1, data, input._dtype, (input,))
    return out


_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}
REGISTRY["round"].fn = round_decimals  # the registered round also takes decimals=
REGISTRY["round"].nodes = ("RoundBackward0", "RoundBackward1")
trunc, _ = _unary("trunc", np.trunc, lambda g, s, r: _zeros(g), "self: zeros_like(grad)", save=None,
                  keeps_int=True)
frac, _ = _unary("frac", lambda a: a - np.trunc(a), lambda g, s, r: g, "self: grad", save=None)


# --- clamp / maximum / minimum / where -------------------------------------------------------------


class ClampBackward1(Node):
    __slots__ = ("min", "max")
    formula = "self: where((self >= min) & (self <= max), grad, 0)  (only the bounds given; NaN self: 0)"

    def apply(self, grads):
        # PyTorch's clamp_backward: a where, not a product (an inf/nan gradient outside the bounds gives 0)
        s = self._unpack(0)
        mask = None
        if self.min is not None:
            mask = s >= self.min
        if self.max is not None:
            m2 = s <= self.max
            mask = m2 if mask is None else mask & m2
        return (where(mask, grads[0], 0.0),)


class ClampBackward0(Node):
    __slots__ = ()
    _pack_order = (2, 1, 0)  # PyTorch saves inputs by name
    formula = ("self: where(min <= self <= max, grad, 0); min: where(self < min & min < max, grad, 0); "
               "max: where(self > max | max < min, grad, 0)  (PyTorch's clamp_backward_min_max)")

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        s = self._unpack(0)
        lo = self._unpack(1)
        hi = self._unpack(2)
        if lo is not None and hi is not None:
            # min > max: the result is max, its gradient goes to max; min == max: to neither bound
            return (where((s >= lo) & (s <= hi), g, 0.0) if n[0] else None,
                    where((s < lo) & (lo < hi), g, 0.0) if n[1] else None,
                    where((s > hi) | (hi < lo), g, 0.0) if n[2] else None)
        if lo is not None:
            return (where(s >= lo, g, 0.0) if n[0] else None, where(s < lo, g, 0.0) if n[1] else None, None)
        return (where(s <= hi, g, 0.0) if n[0] else None, None, where(s > hi, g, 0.0) if n[2] else None)


def clamp(input, min=None, max=None):
    """Clamp into [min, max] (ClampBackward1 for number bounds; the gradient passes at the bounds)."""
    if min is None and max is None:
        raise _runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        dtype = result_dtype(input, *(x for x in (min, max) if x is not None))
        d = input._data
        # bound first: numpy keeps the second operand of a tie, and PyTorch keeps the input's signed zero
        if min is not None:
            d = np.maximum(_arr(min), d)
        if max is not None:
            d = np.minimum(_arr(max), d)
        out, node = record(ClampBackward0, d, dtype, (input, _t(min), _t(max)))
        if node is not None:
            node._save(saved(input), saved(min), saved(max))
        return out
    dtype = result_dtype(input, *(v for v in (min, max) if v is not None))  # bool with int bounds: int64
    if dtype is dt.bool_:
        raise _runtime_error('"clamp_scalar_cpu" not implemented for \'Bool\'')
    d = input._data if input._dtype is dtype else input._data.astype(dtype.np)
    # bound first: numpy keeps the second operand of a tie, and PyTorch keeps the input's signed zero
    # (clamp(-0.0, min=0) is -0.0)
    if min is not None and max is not None:
        d = np.minimum(max, np.maximum(min, d))
    elif min is not None:
        d = np.maximum(min, d)
    else:
        d = np.minimum(max, d)
    out, node = record(ClampBackward1, d, dtype, (input,))
    if node is not None:
        node.min = min
        node.max = max
        node._save(saved(input))
    return out


class ClampMinBackward0(ClampBackward1):
    __slots__ = ()


class ClampMaxBackward0(ClampBackward1):
    __slots__ = ()


class ClampMinBackward1(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: where(self >= min, grad, 0); min: where(self < min, grad, 0)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        s = self._unpack(0)
        m = self._unpack(1)
        return (where(s >= m, g, 0.0) if n[0] else None, where(s < m, g, 0.0) if n[1] else None)


class ClampMaxBackward1(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: where(self <= max, grad, 0); max: where(self > max, grad, 0)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        s = self._unpack(0)
        m = self._unpack(1)
        return (where(s <= m, g, 0.0) if n[0] else None, where(s > m, g, 0.0) if n[1] else None)


def _clamp_bound(input, bound, npfn, node_cls):
    dtype = result_dtype(input, bound)
    data = _compute(npfn, input, bound, dtype)
    out, node = record(node_cls, data, dtype, (input, bound))
    if node is not None:
        node._save(saved(input), saved(bound))
    return out


def clamp_min(input, min):
    """max(input, min) elementwise: ClampMinBackward0 for a number, ClampMinBackward1 for a tensor bound
    (broadcast, promoted), whose gradient goes to min where input < min."""
    if isinstance(min, Tensor):
        return _clamp_bound(input, min, _maximum_tie_first, ClampMinBackward1)  # the input's zero at a tie
    out = clamp(input, min=min)
    if out._grad_fn is not None:
        out._grad_fn.__class__ = ClampMinBackward0
    return out


def clamp_max(input, max):
    """min(input, max) elementwise: ClampMaxBackward0 for a number, ClampMaxBackward1 for a tensor bound."""
    if isinstance(max, Tensor):
        return _clamp_bound(input, max, _minimum_tie_first, ClampMaxBackward1)
    out = clamp(input, max=max)
    if out._grad_fn is not None:
        out._grad_fn.__class__ = ClampMaxBackward0
    return out


def _masked_zero(g, mask):
    """grad.masked_fill(mask, 0) (the masks of PyTorch's max/min rules are bool tensors without history)."""
    from .misc import masked_fill

    return masked_fill(g, mask, 0)


class MaximumBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = ("self: where(self == other, grad / 2, grad).masked_fill_(self < other, 0); "
               "other: where(self == other, grad / 2, grad).masked_fill_(self > other, 0)")

    def apply(self, grads):
        # PyTorch's rule: a NaN compares false both ways, so both inputs get the whole gradient there
        g = grads[0]
        a = self._unpack(0)
        b = self._unpack(1)
        n = self._needs
        split = where(a == b, g / 2, g)
        return (_masked_zero(split, a < b) if n[0] else None,
                _masked_zero(split, a > b) if len(n) > 1 and n[1] else None)


class MinimumBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = ("self: where(self == other, grad / 2, grad).masked_fill_(self > other, 0); "
               "other: where(self == other, grad / 2, grad).masked_fill_(self < other, 0)")

    def apply(self, grads):
        g = grads[0]
        a = self._unpack(0)
        b = self._unpack(1)
        n = self._needs
        split = where(a == b, g / 2, g)
        return (_masked_zero(split, a > b) if n[0] else None,
                _masked_zero(split, a < b) if len(n) > 1 and n[1] else None)


class FmaxBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = ("self: grad.masked_fill((self >= other).logical_or_(other.isnan()).logical_not_(), 0); "
               "other: grad.masked_fill((self >= other).logical_or_(other.isnan()), 0)")

    def apply(self, grads):
        g = grads[0]
        a = self._unpack(0)
        b = self._unpack(1)
        n = self._needs
        to_self = (a >= b) | isnan(b)  # ties and a NaN other go to self
        return (_masked_zero(g, ~to_self) if n[0] else None,
                _masked_zero(g, to_self) if len(n) > 1 and n[1] else None)


class FminBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = ("self: grad.masked_fill((self <= other).logical_or_(other.isnan()).logical_not_(), 0); "
               "other: grad.masked_fill((self <= other).logical_or_(other.isnan()), 0)")

    def apply(self, grads):
        g = grads[0]
        a = self._unpack(0)
        b = self._unpack(1)
        n = self._needs
        to_self = (a <= b) | isnan(b)
        return (_masked_zero(g, ~to_self) if n[0] else None,
                _masked_zero(g, to_self) if len(n) > 1 and n[1] else None)


class NotATensor(TypeError):
    """A Tensor-only argument got something else (PyTorch's TypeError).  The message names the positions of
    the function form; ``rediagnose`` asks the language layer (``errmap.fix_call``) to word it with the
    positions of the call as written (``a.maximum(2.0)`` names 'other' at position 1, ``torch.maximum(a,
    2.0)`` at position 2)."""

    rediagnose = True


def _two_tensors(name: str, input, other) -> None:
    """Raise :class:`NotATensor` unless both arguments are tensors (PyTorch's ``(Tensor input, Tensor other)``
    signatures: maximum, minimum, fmax, fmin, logical_and/or/xor)."""
    for pos, arg, x in ((1, "input", input), (2, "other", other)):
        if not isinstance(x, Tensor):
            raise NotATensor(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {type(x).__name__}")


def _tie_first(npfn):
    """``npfn`` (np.maximum/np.minimum, which keep the second operand of a tie) keeping the first, as PyTorch's
    maximum/minimum/clamp do: maximum(-0.0, 0.0) is -0.0 (np.fmax/np.fmin already keep the first)."""
    return lambda a, b, **kw: npfn(b, a, **kw)


# made once: maximum/minimum and the tensor-bound clamps call them on every use
_maximum_tie_first = _tie_first(np.maximum)
_minimum_tie_first = _tie_first(np.minimum)


def _max_min(name, npfn, node_cls, input, other):
    _two_tensors(name, input, other)
    dtype = result_dtype(input, other)
    data = _compute(npfn, input, other, dtype)
    out, node = record(node_cls, data, dtype, (input, other))
    if node is not None:
        node._save(saved(input), saved(other))
    return out


def maximum(input, other):
    """Elementwise maximum of two tensors (broadcast, promoted); NaN wins.  Ties split the gradient equally and
    at a NaN both inputs get it (MaximumBackward0).  TypeError unless both are tensors."""
    return _max_min("maximum", _maximum_tie_first, MaximumBackward0, input, other)


def minimum(input, other):
    """Elementwise minimum of two tensors; NaN wins; gradient as maximum's (MinimumBackward0)."""
    return _max_min("minimum", _minimum_tie_first, MinimumBackward0, input, other)


def fmax(input, other):
    """Elementwise maximum ignoring NaN (NaN only where both are); the whole gradient goes to input on ties
    (FmaxBackward0).  TypeError unless both are tensors."""
    return _max_min("fmax", np.fmax, FmaxBackward0, input, other)


def fmin(input, other):
    """Elementwise minimum ignoring NaN; gradient as fmax's (FminBackward0)."""
    return _max_min("fmin", np.fmin, FminBackward0, input, other)


class WhereBackward0(Node):
    __slots__ = ()
    formula = "self: where(condition, grad, 0); other: where(condition, 0, grad)"

    def apply(self, grads):
        g = grads[0]
        c = self._unpack(0)
        n = self._needs
        return (where(c, g, 0.0) if n[0] else None, where(c, 0.0, g) if len(n) > 1 and n[1] else None)


def where(condition, input=None, other=None):
    """Pick from input where condition, else other (WhereBackward0); input/other are tensors or numbers,
    broadcast together.  ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``: a tuple of int64
    index tensors.  Raises runtime for a condition that is not bool (uint8 is deprecated: a warning), TypeError
    for a condition that is not a tensor."""
    if input is None and other is None:
        return _where_nonzero(condition)
    if not isinstance(condition, Tensor):
        raise ArgumentTypeError(f"where(): argument 'condition' (position 1) must be Tensor, not {type(condition).__name__}")
    if condition._dtype is dt.uint8:
        from ..errors import warn

        warn("other", "where received a uint8 condition tensor. This behavior is deprecated and will be removed "
                      "in a future version of PyTorch. Use a boolean condition instead.")
    elif condition._dtype is not dt.bool_:
        raise _runtime_error(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                             f"{_CPP_NAME.get(condition._dtype.name, condition._dtype.name)}")
    dtype = result_dtype(*(x for x in (input, other)))
    c = condition._data.astype(bool, copy=False)
    try:
        data = np.where(c, _arr(input), _arr(other)).astype(dtype.np, copy=False)
    except ValueError:
        raise shape_error(np.shape(c), np.shape(_arr(input))) from None
    # a normal condition brings autograd in for inference inputs outside inference_mode (PyTorch 2.13)
    out, node = record(WhereBackward0, data, dtype, (_t(input), _t(other)), wrapped_number=not condition._inference)
    if node is not None:
        node._save(saved(condition) if condition._dtype is dt.bool_ else Tensor._from_data(c, dt.bool_))
    return out


_CPP_NAME = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
             "int16": "Short", "int8": "Char"}


def _where_nonzero(condition):
    if not isinstance(condition, Tensor):
        raise ArgumentTypeError(f"where(): argument 'condition' (position 1) must be Tensor, not {type(condition).__name__}")
    idx = np.nonzero(np.atleast_1d(condition._data))
    return tuple(Tensor._from_data(np.ascontiguousarray(i, dtype=np.int64), dt.int64) for i in idx)


def where_method(self, condition, other):
    """``self.where(condition, other)``: where(condition, self, other)."""
    return where(condition, self, other)


# --- comparisons and logic (not differentiable) --------------------------------------------


def _cmp(npfn, name):
    def fn(input, other):
        if not isinstance(other, (Tensor,) + _SCALARS):
            return NotImplemented if name.startswith("__") else _bad(other)
        dtype = result_dtype(input, other)
        a = input._data if isinstance(input, Tensor) else input
        b = other._data if isinstance(other, Tensor) else other
        if dtype.category:
            a = a.astype(dtype.np, copy=False) if isinstance(a, np.ndarray) else a
            b = b.astype(dtype.np, copy=False) if isinstance(b, np.ndarray) else b
        try:
            data = npfn(a, b)
        except ValueError:
            raise shape_error(np.shape(a), np.shape(b)) from None
        out = Tensor._from_data(np.asarray(data), dt.bool_)
        if _batching.state.depth:
            _batching.mark(out, (input, other))  # (torch.func.vmap: `if x > 0` on a batched x)
        return out

    fn.__name__ = name
    fn.__doc__ = f"Elementwise comparison ({name}); a bool tensor, not differentiable."
    return fn


def _bad(x):
    raise ArgumentTypeError(f"expected a Tensor or a number, got {type(x).__name__}")


eq = _cmp(np.equal, "eq")
ne = _cmp(np.not_equal, "ne")
lt = _cmp(np.less, "lt")
le = _cmp(np.less_equal, "le")
gt = _cmp(np.greater, "gt")
ge = _cmp(np.greater_equal, "ge")


_CPU_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half"}


def _logic(npfn, name):
    def fn(input, other):
        if not isinstance(other, (Tensor, bool, int, float)):
            return NotImplemented
        a = input._data
        b = other._data if isinstance(other, Tensor) else other
        dtype = result_dtype(input, other)
        if dtype.is_floating_point:  # no Float kernel (PyTorch's NotImplementedError: runtime)
            raise _runtime_error(f'"{name}_cpu" not implemented for \'{_CPU_NAMES.get(dtype.name, dtype.name)}\'')
        try:
            data = npfn(a, b)
        except ValueError:
            raise shape_error(np.shape(a), np.shape(b)) from None
        return Tensor._from_data(np.asarray(data).astype(dtype.np), dtype)

    fn.__name__ = name
    return fn


bitwise_and = _logic(np.bitwise_and, "bitwise_and")
bitwise_or = _logic(np.bitwise_or, "bitwise_or")
bitwise_xor = _logic(np.bitwise_xor, "bitwise_xor")


def logical_not(input):
    """Elementwise not; a bool tensor."""
    return Tensor._from_data(np.asarray(np.logical_not(input._data)), dt.bool_)


def bitwise_not(input):
    """bitwise_not for bool/int tensors (float: PyTorch has no kernel, a runtime error)."""
    if input._dtype.is_floating_point:
        raise _runtime_error(f'"bitwise_not_cpu" not implemented for \'{_CPU_NAMES.get(input._dtype.name)}\'')
    return Tensor._from_data(np.asarray(np.invert(input._data)), input._dtype)


def invert_op(input):
    """~input: a TypeError for a float tensor (Tensor.__invert__), else bitwise_not."""
    if input._dtype.is_floating_point:
        raise ArgumentTypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(input)


def _logical(npfn, input, other):
    _two_tensors(npfn.__name__, input, other)
    try:
        data = npfn(input._data, _arr(other))
    except ValueError:
        raise shape_error(np.shape(input._data), np.shape(_arr(other))) from None
    return Tensor._from_data(np.asarray(data), dt.bool_)


def logical_and(input, other):
    return _logical(np.logical_and, input, other)


def logical_or(input, other):
    return _logical(np.logical_or, input, other)


def logical_xor(input, other):
    """Elementwise exclusive or of the truth values (nonzero) of two tensors (broadcast): a bool tensor, not
    differentiable.  TypeError unless both are tensors."""
    return _logical(np.logical_xor, input, other)


def isnan(input):
    return Tensor._from_data(np.asarray(np.isnan(input._data)), dt.bool_)


def _abs_out_check(input) -> None:
    """PyTorch's isinf/isfinite call abs(out=...) on a floating input: for an inference tensor that requires
    grad, outside inference_mode with grad on, autograd refuses the out= call (runtime)."""
    if input._inference and input._requires_grad and mode.enabled and not mode.inference:
        raise _runtime_error("abs(): functions with out=... arguments don't support automatic differentiation, "
                             "but one of the arguments requires grad.")


def isinf(input):
    """Elementwise test for +-inf: a bool tensor, not differentiable."""
    _abs_out_check(input)
    return Tensor._from_data(np.asarray(np.isinf(input._data)), dt.bool_)


def isfinite(input):
    """Elementwise test for a finite value (not inf, not nan): a bool tensor, not differentiable."""
    _abs_out_check(input)
    return Tensor._from_data(np.asarray(np.isfinite(input._data)), dt.bool_)


class NanToNumBackward0(Node):
    __slots__ = ()
    formula = "self: grad * isfinite(self)"

    def apply(self, grads):
        return (grads[0] * isfinite(self._unpack(0)),)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """nan, +inf and -inf replaced by ``nan`` (default 0), ``posinf`` and ``neginf`` (default the dtype's largest
    and lowest finite values) (NanToNumBackward0: the gradient passes where the input is finite).  An integer
    or bool tensor comes back as a copy.  (torch.nan_to_num's out=: ops/out.py.)"""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"nan_to_num(): argument 'input' (position 1) must be Tensor, not "
                                f"{type(input).__name__}")
    for pos, (arg, v) in enumerate((("nan", nan), ("posinf", posinf), ("neginf", neginf)), 1):
        if not (isinstance(v, (int, float, Tensor)) or v is None and arg != "nan"):
            # PyTorch's argument parser (positions as for the method, x.nan_to_num((2, 1)))
            raise ArgumentTypeError(f"nan_to_num(): argument '{arg}' (position {pos}) must be float, not "
                                    f"{type(v).__name__}")
    values = []
    for pos, (arg, v) in enumerate((("nan", nan), ("posinf", posinf), ("neginf", neginf)), 1):
        if isinstance(v, Tensor):  # the parser takes a 0-d tensor as a float, nothing larger
            if v._data.ndim != 0:
                raise ArgumentTypeError(f"nan_to_num(): argument '{arg}' (position {pos}) must be float, not Tensor")
            v = float(v._data)
        values.append(v)
    nan, posinf, neginf = values
    a = input._data
    if input._dtype.is_floating_point:
        info = np.finfo(a.dtype)
        data = np.nan_to_num(a, nan=float(nan), posinf=info.max if posinf is None else posinf,
                             neginf=info.min if neginf is None else neginf).astype(a.dtype, copy=False)
    else:
        data = np.array(a, copy=True)
    res, node = record(NanToNumBackward0, data, input._dtype, (input,))
    if node is not None:
        node._save(saved(input))
    return res


def _r(fn):
    def r(self, other):
        return fn(other, self)

    r.__name__ = "r" + fn.__name__
    return r


def _binop_method(fn):
    def m(self, other):
        if not isinstance(other, (Tensor,) + _SCALARS):
            return NotImplemented
        return fn(self, other)

    m.__name__ = fn.__name__
    return m


_S = "binary"
register("add", add, "elementwise", methods=("add", "__add__", "__radd__"), nodes=("AddBackward0",),
         formula=AddBackward0.formula, sample=_S)
register("sub", sub, "elementwise", torch=("sub", "subtract"), methods=("sub", "subtract", "__sub__"),
         nodes=("SubBackward0",), formula=SubBackward0.formula, sample=_S)
register("rsub", rsub, "elementwise", methods=("__rsub__",), nodes=("RsubBackward1",),
         formula=RsubBackward1.formula, sample="scalar_first")
register("mul", mul, "elementwise", torch=("mul", "multiply"),
         methods=("mul", "multiply", "__mul__", "__rmul__"), nodes=("MulBackward0",),
         formula=MulBackward0.formula, sample=_S)
register("div", div, "elementwise", torch=("div", "divide", "true_divide"),
         methods=("div", "divide", "true_divide", "__truediv__"), nodes=("DivBackward0", "DivBackward2"),
         formula=DivBackward0.formula, sample="binary_nonzero")
def true_divide(input, other):
    """torch.true_divide / Tensor.true_divide: div without rounding_mode (PyTorch's alias takes none, so
    passing one is a TypeError)."""
    return div(input, other)


REGISTRY["div"].extra["torch_fns"] = {"true_divide": true_divide}
REGISTRY["div"].extra["method_fns"] = {"true_divide": true_divide}
register("rdiv", rdiv, "elementwise", torch=(), methods=("__rtruediv__",), nodes=("MulBackward0",),
         formula="number / self = reciprocal(self) * number", sample="scalar_first_nonzero")
register("floor_divide", floor_divide, "elementwise", methods=("floor_divide", "__floordiv__"),
         nodes=("NotImplemented",), formula="", sample=None)
register("rfloordiv", _r(floor_divide), "elementwise", torch=(), methods=("__rfloordiv__",), sample=None)
register("remainder", remainder, "elementwise", torch=("remainder",),
         methods=("remainder", "__mod__"), nodes=("RemainderBackward0", "RemainderBackward1"),
         formula=RemainderBackward1.formula,
         sample=None)
register("rmod", _r(remainder), "elementwise", torch=(), methods=("__rmod__",), sample=None)
register("pow", pow, "elementwise", methods=("pow", "__pow__"), nodes=("PowBackward0", "PowBackward1"),
         formula=PowBackward1.formula, sample="pow")
register("rpow", rpow, "elementwise", torch=(), methods=("__rpow__",), nodes=("PowBackward2",),
         formula=PowBackward2.formula, sample="scalar_first")
register("square", square, "elementwise", nodes=("PowBackward0",), formula="self: 2 * grad * self", sample="any")
register("clamp", clamp, "elementwise", torch=("clamp", "clip"), methods=("clamp", "clip"),
         nodes=("ClampBackward1", "ClampBackward0"), formula=ClampBackward1.formula, sample="clamp")
register("clamp_min", clamp_min, "elementwise", nodes=("ClampMinBackward0", "ClampMinBackward1"),
         formula=ClampMinBackward1.formula)
register("clamp_max", clamp_max, "elementwise", nodes=("ClampMaxBackward0", "ClampMaxBackward1"),
         formula=ClampMaxBackward1.formula)
register("maximum", maximum, "elementwise", nodes=("MaximumBackward0",), formula=MaximumBackward0.formula,
         sample="binary")
register("minimum", minimum, "elementwise", nodes=("MinimumBackward0",), formula=MinimumBackward0.formula,
         sample="binary")
register("fmax", fmax, "elementwise", nodes=("FmaxBackward0",), formula=FmaxBackward0.formula, sample="binary")
register("fmin", fmin, "elementwise", nodes=("FminBackward0",), formula=FminBackward0.formula, sample="binary")
register("where", where, "elementwise", nodes=("WhereBackward0",), formula=WhereBackward0.formula,
         sample="where")
REGISTRY["where"].extra["method_fns"] = {"where": where_method}
for _n, _f, _d in (("eq", eq, "__eq__"), ("ne", ne, "__ne__"), ("lt", lt, "__lt__"), ("le", le, "__le__"),
                   ("gt", gt, "__gt__"), ("ge", ge, "__ge__")):
    register(_n, _f, "comparison", methods=(_n, _d), formula="")
register("bitwise_and", bitwise_and, "logic", methods=("bitwise_and", "__and__", "__rand__"))
register("bitwise_or", bitwise_or, "logic", methods=("bitwise_or", "__or__", "__ror__"))
register("bitwise_xor", bitwise_xor, "logic", methods=("bitwise_xor", "__xor__", "__rxor__"))
register("bitwise_not", bitwise_not, "logic", methods=("bitwise_not", "__invert__"))
REGISTRY["bitwise_not"].extra["method_fns"] = {"__invert__": invert_op}
register("logical_not", logical_not, "logic")
register("logical_and", logical_and, "logic")
register("logical_or", logical_or, "logic")
register("logical_xor", logical_xor, "logic")
register("isnan", isnan, "comparison")
register("isinf", isinf, "comparison")
register("isfinite", isfinite, "comparison")
register("nan_to_num", nan_to_num, "elementwise", nodes=("NanToNumBackward0",), formula=NanToNumBackward0.formula)
register("neg_op", neg, "elementwise", torch=(), methods=("__neg__",), nodes=("NegBackward0",), formula="self: -grad")
def pos_op(self):
    """+x: x itself (PyTorch refuses a bool tensor)."""
    if isinstance(self, Tensor) and self._dtype is dt.bool_:
        raise _runtime_error("The `+` operator, on a bool tensor is not supported.")
    return self


register("pos_op", pos_op, "elementwise", torch=(), methods=("__pos__",))
