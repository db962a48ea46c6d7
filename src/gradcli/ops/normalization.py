"""Normalization: ``F.layer_norm`` (NativeLayerNormBackward0) and ``F.batch_norm`` (NativeBatchNormBackward0).

Checks and messages as PyTorch 2.13: ``F.batch_norm``'s Python checks (``Expected more than 1 value per
channel when training``, the ValueErrors for ``eps``), then ATen's (``running_mean must be defined in
evaluation mode``, ``weight should contain 3 elements not 2``); ``layer_norm``'s ``Given
normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 4]``, the weight/bias shape
messages, ``mixed dtype (CPU): all inputs must share same datatype.``.

Values.  layer_norm: mean and biased variance over the last ``len(normalized_shape)`` dims, ``rstd =
1/sqrt(var + eps)``, ``y = (x - mean) * rstd * weight + bias``, as ATen's CPU kernel rounds them
(:mod:`.norm_order`: its Welford moments, ``fma((x - mean) * rstd, weight, bias)``) for rows of up to 16
vectors (N < 136 float32, N < 68 float64), else computed in float64 and rounded once.  batch_norm of a
contiguous float32 input follows ATen's CPU kernels (:mod:`.batch_norm_order`: the per-channel mean and
variance sums of its contiguous or channels-last kernel, ``invstd``, the running statistics updated in place
with grad mode off, the output ``fma(x, alpha, beta)``; in evaluation mode the running statistics
normalise), so an ill-conditioned channel (tiny variance, a large ``invstd``) shows PyTorch's bits.  Other
batch_norm inputs (float64, a non-contiguous input) keep the float64 formulas: the mean and biased variance
over (N, *) (the mean of the input rounded to its dtype, the sum of squared differences, ``invstd =
1/sqrt(var_sum / n + eps)`` in double), ``running = momentum * stat + (1 - momentum) * running`` (the
unbiased variance for ``running_var``), the float32 output as ATen's transform, within SPEC §1's tolerance
without being PyTorch's bits.  A layer_norm row too long for :mod:`.norm_order` is computed in float64
and rounded once, within that tolerance too.

Backward: layer_norm's input gradient as ATen's kernel rounds it (:mod:`.norm_order`) where the forward
followed the kernel, else (float64, rounded once) ``dx = rstd * (gw - mean(gw) - xhat * mean(gw * xhat))``
with ``gw = grad * weight``, ``dweight = sum(grad * xhat)``, ``dbias = sum(grad)``; batch_norm as ATen's
kernel (:mod:`.batch_norm_order`, its strided path for an expanded incoming gradient) where the forward
followed it, else the same float64 formulas over the channel's (N, *) positions in training mode, ``dx =
grad * invstd * weight`` in evaluation mode.  A backward with ``create_graph=True`` gives the same gradients as
outputs of one NativeLayerNormBackwardBackward0 / NativeBatchNormBackwardBackward0 node (PyTorch's graph).
batch_norm's second derivative is FunctionsManual.cpp's ``batchnorm_double_backward`` in recorded ops (its
float32 sums in gradcli's order: a cancellation can round differently); layer_norm's is not supported, and a
backward through its node is an ``unsupported`` error that says so.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ..autograd.fma import fma as _fma
from ..autograd.fma import fma32 as _fma32

from ..errors import ArgumentIndexError, ArgumentTypeError, error_class
from ..errors import python_errors
from . import _core
from ._core import Node, Tensor, check_numel, mode, record, saved
from . import batch_norm_order, norm_order
from .registry import register

__all__ = ["layer_norm", "batch_norm"]

_TYPE = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
         "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _runtime(msg: str) -> Exception:
    return error_class("runtime")(msg)


def _sizes(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def _no_double_backward(node: str) -> Exception:
    return error_class("unsupported")(
        f"the second derivative of this normalization ({node}: a backward through the gradients that a "
        "backward with create_graph=True computed through it) is not supported by gradcli",
        "Backpropagate through those gradients with PyTorch itself, or keep them out of this backward.")


class _DoubleBackward(Node):
    """The backward of a normalization's backward (``native_layer_norm_backward`` /
    ``native_batch_norm_backward`` recorded as one differentiable op under ``create_graph=True``, outputs
    grad_input, grad_weight, grad_bias): PyTorch's ``layer_norm_double_backward`` is not reproduced, so running
    this one is an ``unsupported`` error (NativeBatchNormBackwardBackward0 overrides it); the first-order
    gradients themselves are exact."""

    __slots__ = ("num_outputs",)
    formula = "not supported by gradcli (PyTorch: layer_norm_double_backward / batchnorm_double_backward)"

    def apply(self, grads):
        raise _no_double_backward(type(self).__name__)


class NativeLayerNormBackwardBackward0(_DoubleBackward):
    __slots__ = ()


class NativeBatchNormBackwardBackward0(_DoubleBackward):
    """native_batch_norm_backward as one differentiable op: its backward is FunctionsManual.cpp's
    ``batchnorm_double_backward`` written with the recorded ops it uses (so a create_graph=True backward through
    it records PyTorch's nodes).  Saved: grad_out, input, weight; the forward's saved mean / invstd (training)
    or the running mean / 1/sqrt(running_var + eps) (evaluation) as constants of the input's dtype."""

    __slots__ = ("training", "mean", "invstd", "has_weight")
    formula = "input, weight, grad_out: batchnorm_double_backward (FunctionsManual.cpp)"

    def apply(self, grads):
        gO = self._unpack(0)
        x = self._unpack(1)
        w = self._unpack(2) if self.has_weight else None
        need_gO, need_x, need_w = (self._needs + (False, False, False))[:3]
        gI, gG, ggO = _batchnorm_double_backward(x, w, grads[0], grads[1] if len(grads) > 1 else None,
                                                 grads[2] if len(grads) > 2 else None, gO, self.training,
                                                 self.mean, self.invstd, (need_x, need_w, need_gO))
        return (ggO, gI, gG, None, None)


def _sum_exclude_dim1(t: Tensor, keepdim: bool = True) -> Tensor:
    r = t.sum(0, keepdim)
    start = 1 if keepdim else 0
    for d in range(r.dim() - 1, start, -1):
        r = r.sum(d, keepdim)
    return r


def _unsqueeze_dim1(src: Tensor, target: Tensor) -> Tensor:
    while src.dim() < target.dim() - 1:
        src = src.unsqueeze(1)
    if src.dim() == target.dim() - 1:
        src = src.unsqueeze(0)
    return src


def _expand_as_dim1(src: Tensor, target: Tensor) -> Tensor:
    while src.dim() < target.dim() - 1:
        src = src.unsqueeze(1)
    return src.expand_as(target)


def _batchnorm_double_backward(input: Tensor, gamma: Optional[Tensor], ggI, ggG, ggB, gO: Tensor, training: bool,
                               mean: np.ndarray, invstd: np.ndarray, output_mask: tuple) -> tuple:
    """FunctionsManual.cpp's batchnorm_double_backward, op by op: (gI, gG, ggO) for (input, weight, grad_out)."""
    from .creation import ones, zeros_like

    affine = gamma is not None
    if affine:
        gamma_expanded = _expand_as_dim1(gamma, input)
        ggG_expanded = _expand_as_dim1(ggG, input) if ggG is not None else None
        ggB_expanded = _expand_as_dim1(ggB, input) if ggB is not None else None
    else:
        gamma_expanded = ones((), dtype=input._dtype)
        ggG_expanded = ggB_expanded = None
    M = input._data.shape[0]
    for n in input._data.shape[2:]:
        M *= n
    npd = input._dtype.np
    mu = _unsqueeze_dim1(Tensor._from_data(np.ascontiguousarray(mean.reshape(-1), dtype=npd), input._dtype), input)
    input_sub_mu = input - mu
    sigma2_eps_neg_1_2 = _unsqueeze_dim1(
        Tensor._from_data(np.ascontiguousarray(invstd.reshape(-1), dtype=npd), input._dtype), input)
    sigma2_eps_neg_1 = sigma2_eps_neg_1_2.pow(2)
    sigma2_eps_neg_3_2 = sigma2_eps_neg_1_2.pow(3)

    input_mu_sigma2_neg_3_2 = input_sub_mu * sigma2_eps_neg_3_2
    gOinmu_sum = _sum_exclude_dim1(gO * input_sub_mu)
    gO_sum = _sum_exclude_dim1(gO)

    gI = None
    if ggI is not None and training:
        ggI_sum = _sum_exclude_dim1(ggI)
        ggIinmu_sum = _sum_exclude_dim1(ggI * input_sub_mu)
        all_sub = ((ggI_sum * gO_sum).div_(M)).sub_(_sum_exclude_dim1(gO * ggI)).add_(
            (sigma2_eps_neg_1 * gOinmu_sum * ggIinmu_sum).mul_(3.0 / M))
        gI_0t = (input_mu_sigma2_neg_3_2 * all_sub).div_(M)
        gI_1t = (ggIinmu_sum * sigma2_eps_neg_3_2).div_(M) * (gO_sum.div(M) - gO)
        gI_2t = (gOinmu_sum * sigma2_eps_neg_3_2).div_(M) * (ggI_sum.div(M) - ggI)
        gI = gamma_expanded * (gI_0t.add_(gI_1t).add_(gI_2t))

    if affine and ggG is not None:
        if training:
            t0 = gO * sigma2_eps_neg_1_2
            t1 = (sigma2_eps_neg_1_2 * gO_sum).div_(-M)
            t2 = (input_mu_sigma2_neg_3_2 * _sum_exclude_dim1(gO * input_sub_mu)).div_(-M)
            gI_G_term = ggG_expanded * (t0.add_(t1).add_(t2))
        else:
            gI_G_term = ggG_expanded * sigma2_eps_neg_1_2 * gO
        gI = gI.add_(gI_G_term) if gI is not None else gI_G_term

    def first_back_grad_input(g: Tensor, gam: Tensor) -> Tensor:
        h0 = (gam * sigma2_eps_neg_1_2).div_(M)
        h1 = (M * g).sub_(_sum_exclude_dim1(g)).sub_(input_sub_mu.mul(sigma2_eps_neg_1)
                                                    * _sum_exclude_dim1(g * input_sub_mu))
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        if training:
            gG = ggI * first_back_grad_input(gO, ones((), dtype=input._dtype))
            gG = _sum_exclude_dim1(gG, False)
        else:
            gG = _sum_exclude_dim1(ggI * gO * sigma2_eps_neg_1_2, False)

    ggO = None
    if ggI is not None:
        ggO = first_back_grad_input(ggI, gamma_expanded) if training else ggI * sigma2_eps_neg_1_2 * gamma_expanded
    if ggG is not None and affine:
        ggO_G_term = ggG_expanded * input_sub_mu * sigma2_eps_neg_1_2
        ggO = ggO.add_(ggO_G_term) if ggO is not None else ggO_G_term
    if ggB is not None and affine:
        ggO = ggO.add_(ggB_expanded) if ggO is not None else ggB_expanded

    if output_mask[1] and gG is None and affine:
        gG = zeros_like(gamma)
    if output_mask[0] and gI is None:
        gI = zeros_like(input)
    if output_mask[2] and ggO is None:
        ggO = zeros_like(gO)
    return (gI if output_mask[0] else None, gG if output_mask[1] else None, ggO if output_mask[2] else None)


def _double_backward_outputs(node_cls, out: tuple, inputs: tuple) -> tuple:
    """``out`` (grad_input, grad_weight, grad_bias; None where not needed) as the outputs of one ``node_cls``
    node over ``inputs`` (its edges, PyTorch's order), when grad mode is on and an input requires grad."""
    present = [i for i, t in enumerate(out) if t is not None]
    if not present:
        return out
    first = present[0]
    t0, node = record(node_cls, out[first]._data, out[first]._dtype, inputs)
    if node is None:
        return out
    node.num_outputs = 3
    res = list(out)
    t0._output_nr = first
    res[first] = t0
    for i in present[1:]:
        t = out[i]
        t._grad_fn = node
        t._output_nr = i
        t._requires_grad = True
        if _core.value_sink is not None:
            _core.value_sink(t, node)
    return tuple(res)


def _value_error(msg: str) -> Exception:
    from ..nn._errors import nn_error

    return nn_error(ValueError, msg)


def _f64(t: Optional[Tensor]) -> Optional[np.ndarray]:
    return None if t is None else t._data.astype(np.float64)


def _check_float(input: Tensor, kernel: str, others: Sequence[Optional[Tensor]]) -> None:
    """The kernel's dtype checks: a floating input; parameters of the input's dtype (ATen's mixed-dtype
    messages: a float32 input names the parameter's expected type, any other says all must share one)."""
    name = input._dtype.name
    if not input._dtype.is_floating_point:
        raise error_class("runtime")(f"\"{kernel}\" not implemented for '{_TYPE.get(name, name)}'",
                                     torch_type=NotImplementedError)
    for t in others:
        if t is not None and t._dtype is not input._dtype:
            if name == "float32":
                raise _runtime("mixed dtype (CPU): expect parameter to have scalar type of Float")
            raise _runtime("mixed dtype (CPU): all inputs must share same datatype.")


def _need_float(fn: str, name: str, pos: int, v: Any) -> None:
    """PyTorch's argument parser for a ``float`` argument (an int is accepted, a bool or None is not)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be float, not {type(v).__name__}")


# --- layer_norm --------------------------------------------------------------------------------------------


class NativeLayerNormBackward0(Node):
    __slots__ = ("normalized_shape", "mean", "rstd", "kernel")
    formula = ("input: rstd * (gw - mean(gw) - xhat * mean(gw * xhat)), gw = grad * weight; weight: sum(grad * "
               "xhat); bias: sum(grad)")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)  # (a freed graph's second_backward error comes first, as PyTorch's unpacking)
        w = self._unpack(1)
        if mode.enabled:  # create_graph=True: the same values, outputs of one NativeLayerNormBackwardBackward0
            return _double_backward_outputs(NativeLayerNormBackwardBackward0, self._grads(g, x, w),
                                            (g, x, None, None, w, self._unpack(2)))
        return self._grads(g, x, w)

    def _grads(self, g: Tensor, x: Tensor, w: Optional[Tensor]) -> tuple:
        k = len(self.normalized_shape)
        axes = tuple(range(x._data.ndim - k, x._data.ndim))
        lead = tuple(range(x._data.ndim - k))
        g64 = g._data.astype(np.float64)
        xhat = (x._data.astype(np.float64) - self.mean) * self.rstd
        needs = self._needs
        gx = gw_ = gb = None
        if needs[0] and self.kernel:
            n_row = int(np.prod(self.normalized_shape))
            dt = x._dtype.np
            gx = norm_order.input_grad(np.ascontiguousarray(g._data, dtype=dt).reshape(-1, n_row),
                                       np.ascontiguousarray(x._data).reshape(-1, n_row),
                                       self.mean.reshape(-1).astype(dt), self.rstd.reshape(-1).astype(dt),
                                       None if w is None else w._data.reshape(-1)).reshape(x._data.shape)
        elif needs[0]:
            gw = g64 * w._data.astype(np.float64) if w is not None else g64
            gx = self.rstd * (gw - gw.mean(axis=axes, keepdims=True)
                              - xhat * (gw * xhat).mean(axis=axes, keepdims=True))
        if self.kernel and (needs[1] or needs[2]):
            n_row = int(np.prod(self.normalized_shape))
            dt = x._dtype.np
            pw, pb = norm_order.param_grads(np.ascontiguousarray(g._data, dtype=dt).reshape(-1, n_row),
                                            np.ascontiguousarray(x._data).reshape(-1, n_row),
                                            self.mean.reshape(-1).astype(dt), self.rstd.reshape(-1).astype(dt))
            gw_ = pw.reshape(self.normalized_shape) if needs[1] else None
            gb = pb.reshape(self.normalized_shape) if needs[2] else None
        else:
            if needs[1]:
                gw_ = (g64 * xhat).sum(axis=lead)
            if needs[2]:
                gb = g64.sum(axis=lead)
        dtype = x._dtype
        return tuple(None if a is None else Tensor._from_data(np.ascontiguousarray(a, dtype=dtype.np), dtype)
                     for a in (gx, gw_, gb))


def _int_list(v: Any) -> Optional[list]:
    if isinstance(v, (list, tuple)) and all(isinstance(e, int) and not isinstance(e, bool) for e in v):
        return [int(e) for e in v]
    return None


@python_errors
def layer_norm(input: Any, normalized_shape: Any, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               eps: float = 1e-5) -> Tensor:
    """``F.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)``: each slice over the last
    ``len(normalized_shape)`` dims normalised to mean 0 and variance 1, then ``* weight + bias``
    (NativeLayerNormBackward0; edges input, weight, bias)."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"layer_norm(): argument 'input' (position 1) must be Tensor, not "
                                f"{type(input).__name__}")
    shape = _int_list(normalized_shape)
    if shape is None:
        raise ArgumentTypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                                f"{type(normalized_shape).__name__}")
    for name, pos, t in (("weight", 3, weight), ("bias", 4, bias)):
        if t is not None and not isinstance(t, Tensor):
            raise ArgumentTypeError(f"layer_norm(): argument '{name}' (position {pos}) must be Tensor, not "
                                    f"{type(t).__name__}")
    _need_float("layer_norm", "eps", 5, eps)
    if not shape:
        raise _runtime("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                       "element, but got normalized_shape = []")
    if weight is not None and list(weight._data.shape) != shape:
        raise _runtime(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                       f"{_sizes(weight._data.shape)} and normalized_shape = {_sizes(shape)}")
    if bias is not None and list(bias._data.shape) != shape:
        raise _runtime(f"Expected bias to be of same shape as normalized_shape, but got bias of shape "
                       f"{_sizes(bias._data.shape)} and normalized_shape = {_sizes(shape)}")
    in_shape = list(input._data.shape)
    k = len(shape)
    if len(in_shape) < k or in_shape[len(in_shape) - k:] != shape:
        raise _runtime(f"Given normalized_shape={_sizes(shape)}, expected input with shape [*"
                       + "".join(f", {s}" for s in shape) + f"], but got input of size{_sizes(in_shape)}")
    _check_float(input, "LayerNormKernelImpl", (weight, bias))
    check_numel(input._data.size)
    axes = tuple(range(len(in_shape) - k, len(in_shape)))
    n_row = int(np.prod(shape))
    kernel = input._data.size > 0 and norm_order.supported(n_row, input._dtype.np)
    if kernel:  # ATen's own rounding (ops/norm_order.py): an ill-conditioned row shows it past tolerance
        stat_shape = tuple(in_shape[:len(in_shape) - k]) + (1,) * k
        x2 = np.ascontiguousarray(input._data).reshape(-1, n_row)
        m32, r32 = norm_order.moments(x2, float(eps))
        y = (x2 - m32[:, None]) * r32[:, None]
        if weight is not None and bias is not None:
            y = _fma(y, np.broadcast_to(weight._data.reshape(-1), y.shape),
                     np.broadcast_to(bias._data.reshape(-1), y.shape), input._dtype.np)
        elif weight is not None:  # (ATen's scalar loop adds a bias of 0: a -0.0 comes out +0.0)
            y = y * weight._data.reshape(-1) + input._dtype.np.type(0)
        elif bias is not None:
            y = y + bias._data.reshape(-1)
        else:
            y = y + input._dtype.np.type(0)
        y = y.reshape(in_shape)
        mean = m32.astype(np.float64).reshape(stat_shape)
        rstd = r32.astype(np.float64).reshape(stat_shape)
    else:
        x = input._data.astype(np.float64)
        mean = x.mean(axis=axes, keepdims=True) if x.size else np.zeros(x.shape[:len(in_shape) - k] + (1,) * k)
        var = ((x - mean) ** 2).mean(axis=axes, keepdims=True) if x.size else mean
        rstd = 1.0 / np.sqrt(var + float(eps))
        y = (x - mean) * rstd
        if weight is not None:
            y = y * _f64(weight)
        if bias is not None:
            y = y + _f64(bias)
    out, node = record(NativeLayerNormBackward0, np.ascontiguousarray(y, dtype=input._dtype.np), input._dtype,
                       (input, weight, bias))
    if node is not None:
        node.normalized_shape = tuple(shape)
        node.mean, node.rstd, node.kernel = mean, rstd, kernel
        node._save(saved(input), saved(weight), saved(bias))
    return out


# --- batch_norm --------------------------------------------------------------------------------------------


class NativeBatchNormBackward0(Node):
    __slots__ = ("training", "eps", "mean", "invstd", "kernel", "running_var")
    formula = ("input: (grad - mean(grad) - xhat * mean(grad * xhat)) * invstd * weight (training), grad * invstd * "
               "weight (eval); weight: sum(grad * xhat); bias: sum(grad)")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)  # (a freed graph's second_backward error comes first, as PyTorch's unpacking)
        w = self._unpack(1)
        if mode.enabled:  # create_graph=True: the same values, outputs of one NativeBatchNormBackwardBackward0
            out = _double_backward_outputs(NativeBatchNormBackwardBackward0, self._grads(g, x, w),
                                           (g, x, w, None, None))
            node = next((t._grad_fn for t in out if t is not None and isinstance(t._grad_fn,
                                                                                NativeBatchNormBackwardBackward0)),
                        None)
            if node is not None:
                node.training, node.mean, node.invstd, node.has_weight = self.training, self.mean, self.invstd, \
                    w is not None
                node._save(saved(g), saved(x), saved(w))
            return out
        return self._grads(g, x, w)

    def _grads(self, g: Tensor, x: Tensor, w: Optional[Tensor]) -> tuple:
        if self.kernel:  # ATen's own order (ops/batch_norm_order.py)
            return self._kernel_grads(g, x, w)
        axes = (0,) + tuple(range(2, x._data.ndim))
        g64 = g._data.astype(np.float64)
        xhat = (x._data.astype(np.float64) - self.mean) * self.invstd
        scale = self.invstd if w is None else self.invstd * _f64(w).reshape(self.invstd.shape)
        needs = self._needs
        gx = gw = gb = None
        if needs[0]:
            if self.training:
                gx = (g64 - g64.mean(axis=axes, keepdims=True)
                      - xhat * (g64 * xhat).mean(axis=axes, keepdims=True)) * scale
            else:
                gx = g64 * scale
        if needs[1]:
            gw = (g64 * xhat).sum(axis=axes)
        if needs[2]:
            gb = g64.sum(axis=axes)
        dtype = x._dtype
        return tuple(None if a is None else Tensor._from_data(np.ascontiguousarray(a, dtype=dtype.np), dtype)
                     for a in (gx, gw, gb))

    def _kernel_grads(self, g: Tensor, x: Tensor, w: Optional[Tensor]) -> tuple:
        shape = x._data.shape
        npd = x._dtype.np
        x3 = x._data.reshape(shape[0], shape[1], -1)
        dy = np.asarray(g._data, dtype=npd)
        # PyTorch hands the incoming gradient to the kernel as it is: an expanded one (out.sum().backward())
        # takes ATen's strided path
        contiguous = dy.flags.c_contiguous
        dy3 = np.ascontiguousarray(dy).reshape(x3.shape)
        gx, gw, gb = batch_norm_order.backward(
            dy3, x3, self.mean, self.invstd if self.training else None,
            None if w is None else w._data.astype(npd).reshape(-1), self.training, self.running_var, self.eps,
            self._needs, contiguous)
        dtype = x._dtype
        return (None if gx is None else Tensor._from_data(gx.reshape(shape), dtype),
                None if gw is None else Tensor._from_data(np.ascontiguousarray(gw), dtype),
                None if gb is None else Tensor._from_data(np.ascontiguousarray(gb), dtype))


def _check_features(name: str, expected: int, t: Optional[Tensor]) -> None:
    if t is not None and t._data.size != expected:
        raise _runtime(f"{name} should contain {expected} elements not {t._data.size}")


def _update_running(running: Tensor, stat: np.ndarray, momentum: float) -> None:
    """``running = momentum * stat + (1 - momentum) * running`` in double, stored in running's dtype, in place.
    The kernel writes the buffer itself: no version bump, as in PyTorch."""
    r = running._data
    new = momentum * stat.reshape(r.shape) + (1 - momentum) * r.astype(np.float64)
    np.copyto(r, new.astype(r.dtype))


@python_errors
def batch_norm(input: Any, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """``F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
    eps=1e-5)``: per channel (dim 1) of an (N, C, *) input, normalised by the batch statistics (training; the
    running ones updated in place when given) or by the running statistics (evaluation), then ``* weight +
    bias`` (NativeBatchNormBackward0; edges input, weight, bias)."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"'{type(input).__name__}' object has no attribute 'size'")
    size = list(input._data.shape)
    if training:
        prods = size[0] if size else 1
        for i in range(len(size) - 2):
            prods *= size[i + 2]
        if prods == 1:
            raise _value_error(f"Expected more than 1 value per channel when training, got input size "
                               f"torch.Size({size})")
    if not isinstance(eps, (int, float)):
        raise ArgumentTypeError(f"'<=' not supported between instances of '{type(eps).__name__}' and 'float'"
                                if training else
                                f"'<' not supported between instances of '{type(eps).__name__}' and 'float'")
    if training and eps <= 0.0:
        raise _value_error(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise _value_error(f"batch_norm eps must be non-negative, but got {eps}")
    for name, pos, t in (("weight", 2, weight), ("bias", 3, bias), ("running_mean", 4, running_mean),
                         ("running_var", 5, running_var)):
        if t is not None and not isinstance(t, Tensor):
            raise ArgumentTypeError(f"batch_norm(): argument '{name}' (position {pos}) must be Tensor, not "
                                    f"{type(t).__name__}")
    if not isinstance(training, bool):
        raise ArgumentTypeError(f"batch_norm(): argument 'training' (position 6) must be bool, not "
                                f"{type(training).__name__}")
    _need_float("batch_norm", "momentum", 7, momentum)
    _need_float("batch_norm", "eps", 8, eps)
    if len(size) < 2:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-max(len(size), 1)}, "
                                 f"{max(len(size), 1) - 1}], but got 1)")
    c = size[1]
    if running_mean is not None:
        _check_features("running_mean", c, running_mean)
    elif not training:
        raise _runtime("running_mean must be defined in evaluation mode")
    if running_var is not None:
        _check_features("running_var", c, running_var)
    elif not training:
        raise _runtime("running_var must be defined in evaluation mode")
    _check_features("weight", c, weight)
    _check_features("bias", c, bias)
    if input._data.size == 0:
        # ATen: not a view of the input, nor an empty tensor that would break the gradient chain
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    _check_float(input, "batch_norm", (weight, bias, running_mean, running_var))
    check_numel(input._data.size)
    axes = (0,) + tuple(range(2, len(size)))
    bshape = (1, c) + (1,) * (len(size) - 2)
    npd = input._dtype.np
    x = input._data
    if batch_norm_order.supported(npd) and x.flags.c_contiguous \
            and all(t is None or t._data.flags.c_contiguous for t in (running_mean, running_var)):
        return _batch_norm_kernel(input, running_mean, running_var, weight, bias, training, float(momentum),
                                  float(eps))
    if training:
        n = x.size // c
        # ATen's batch_norm_cpu_collect_stats: mean and the sum of squared deviations in double (acc_type of
        # float on the CPU), the saved mean and invstd rounded to the input's dtype
        # (a 2-d input: the deviations from the rounded mean in float, as measured on the recorded cases)
        x64 = x.astype(np.float64)
        mean_d = x64.sum(axis=axes, keepdims=True) / n
        if x.ndim == 2:
            diff = (x - mean_d.astype(npd)).astype(npd)
            var_sum = (diff * diff).astype(npd).astype(np.float64).sum(axis=axes, keepdims=True)
            var_sum = var_sum.astype(npd).astype(np.float64)
        else:
            var_sum = ((x64 - mean_d) ** 2).sum(axis=axes, keepdims=True)
        mean = mean_d.astype(npd).astype(np.float64)
        invstd = (1.0 / np.sqrt(var_sum / n + float(eps))).astype(npd).astype(np.float64)
        if running_mean is not None:
            _update_running(running_mean, mean, float(momentum))
        if running_var is not None:
            _update_running(running_var, var_sum.astype(np.float64) / (n - 1), float(momentum))  # n > 1 here
    else:
        mean = running_mean._data.astype(np.float64).reshape(bshape)
        rv = running_var._data.astype(npd).reshape(bshape)
        invstd = (1.0 / np.sqrt((rv + npd.type(eps)).astype(np.float64))).astype(npd).astype(np.float64)
    if npd == np.float32:
        # ATen's CPU kernel (batch_norm_cpu_transform_input): alpha = invstd * weight, beta = bias - mean * alpha
        # per channel in float, then output = fma(input, alpha, beta) -- the bits PyTorch prints (a zero-variance
        # channel shows the rounding of beta: -1.9999695, not -2.0; measured on 2.13, AVX2)
        f32 = np.float32
        alpha = invstd.astype(f32)
        if weight is not None:
            alpha = (alpha * weight._data.astype(f32).reshape(bshape)).astype(f32)
        m_alpha = (mean.astype(f32) * alpha).astype(f32)
        beta = (bias._data.astype(f32).reshape(bshape) - m_alpha).astype(f32) if bias is not None else -m_alpha
        y = _fma32(x, alpha, beta)
    else:
        y = (x.astype(np.float64) - mean) * invstd
        if weight is not None:
            y = y * _f64(weight).reshape(bshape)
        if bias is not None:
            y = y + _f64(bias).reshape(bshape)
    out, node = record(NativeBatchNormBackward0, np.ascontiguousarray(y, dtype=npd), input._dtype,
                       (input, weight, bias))
    if node is not None:
        node.training = bool(training)
        node.eps = float(eps)
        node.kernel = False
        node.mean, node.invstd = mean, invstd
        node._save(saved(input), saved(weight))
    return out


def _batch_norm_kernel(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
                       weight: Optional[Tensor], bias: Optional[Tensor], training: bool, momentum: float,
                       eps: float) -> Tensor:
    """batch_norm of a contiguous float32 input in ATen's order (ops/batch_norm_order.py): the statistics, the
    running statistics updated in place (the kernel writes the buffers: no version bump, as in PyTorch), the
    output; the node keeps the saved mean and invstd (or the running ones) for the kernel's backward."""
    x = input._data
    npd = x.dtype
    size = x.shape
    x3 = x.reshape(size[0], size[1], -1)
    par = lambda t: None if t is None else t._data.astype(npd).reshape(-1)  # noqa: E731
    if training:
        mean, var_sum = batch_norm_order.collect_stats(x3)
        invstd = batch_norm_order.update_stats(
            mean, var_sum, x3.shape[0] * x3.shape[2], eps, momentum,
            None if running_mean is None else running_mean._data.reshape(-1),
            None if running_var is None else running_var._data.reshape(-1))
        rv = None
        y = batch_norm_order.transform(x3, mean, invstd, par(weight), par(bias))
    else:
        mean = running_mean._data.astype(npd).reshape(-1)
        rv = running_var._data.astype(npd).reshape(-1)
        invstd = batch_norm_order.eval_invstd(rv, eps)
        y = batch_norm_order.transform(x3, mean, invstd, par(weight), par(bias))
    out, node = record(NativeBatchNormBackward0, np.ascontiguousarray(y.reshape(size), dtype=npd), input._dtype,
                       (input, weight, bias))
    if node is not None:
        node.training = bool(training)
        node.eps = eps
        node.kernel = True
        node.mean, node.invstd, node.running_var = mean, invstd, rv
        node._save(saved(input), saved(weight))
    return out


def _f64_leaf(*shape: int, seed: int = 0, lo: float = -1.0, hi: float = 1.0) -> Tensor:
    from ..autograd import dtypes as dt

    t = Tensor._from_data(np.random.default_rng(seed + sum(shape)).uniform(lo, hi, size=shape), dt.float64)
    t.requires_grad_(True)
    return t


register("layer_norm", layer_norm, "nn", torch=("layer_norm",), F=("layer_norm",), methods=(),
         nodes=("NativeLayerNormBackward0",), formula=NativeLayerNormBackward0.formula, twice_differentiable=False,
         sample=lambda: ((_f64_leaf(2, 3, 4), (3, 4), _f64_leaf(3, 4, seed=1), _f64_leaf(3, 4, seed=2)), {}),
         notes="second derivative not supported by gradcli")
register("batch_norm", batch_norm, "nn", torch=(), F=("batch_norm",), methods=(),
         nodes=("NativeBatchNormBackward0",), formula=NativeBatchNormBackward0.formula, twice_differentiable=False,
         sample=lambda: ((_f64_leaf(3, 2, 4), None, None, _f64_leaf(2, seed=1), _f64_leaf(2, seed=2)),
                         {"training": True}),
         notes="second derivative not supported by gradcli")
