"""Convolutions: ``F.conv1d`` / ``F.conv2d`` (``torch.conv1d`` / ``torch.conv2d``), ConvolutionBackward0.

As ATen's ``conv1d``/``conv2d`` -> ``convolution`` -> ``_convolution`` (aten/src/ATen/native/Convolution.cpp)
in PyTorch 2.13, check for check and message for message: the bias dtype first, then ``batchify`` (an
unbatched input is unsqueezed, the result squeezed: UnsqueezeBackward0 / SqueezeBackward1 around the node),
the weight's rank, ``groups``, ``expand_param_if_needed`` of stride / padding / dilation, then
``check_shape_forward`` (negative padding, non-positive stride and dilation, weight rank, groups, channels,
bias size, kernel larger than the padded input) and the dtypes of the backend PyTorch would pick (float32:
oneDNN's "Input type ... and weight type ... should be the same"; other dtypes: the slow kernel's "expected
scalar type").  ``padding='same'|'valid'`` follows ``_convolution_mode``: 'same' pads symmetrically when it
can, else pads the right side with ``constant_pad_nd`` first (ConstantPadNdBackward0, with PyTorch's
once-per-run warning about even kernels).

Values.  PyTorch computes a float32 convolution with oneDNN's JIT kernels (or im2col + MKL's sgemm), whose
summation order depends on the kernel and the thread count and cannot be reproduced here.  gradcli
accumulates every float convolution and its gradients in float64 and rounds once to the tensor's dtype, so
its result is within one rounding of the exact value and the difference from PyTorch is PyTorch's own
float32 rounding.  Measured against PyTorch 2.13 (AVX2) on random N(0, 1) data: outputs and input gradients
of layers up to 64 channels x 5x5 kernels stay within SPEC §1's float32 tolerance (worst |diff| / (atol +
rtol |ref|) 0.8); the weight gradient, a sum over batch x output positions, exceeds it once that sum has
more than ~2,000 terms (batch 4 x 16x16 outputs: 15x the tolerance), as any two float32 summation orders
would.  float64 convolutions agree to ~1e-15.  Integer convolutions are exact (int64 arithmetic).

Backward: ``grad_input`` is the transposed convolution of ``grad_output`` with the weight, ``grad_weight``
the correlation of the (padded) input with ``grad_output``, ``grad_bias`` the sum of ``grad_output`` over
the batch and positions.  With ``create_graph=True`` the three are the outputs of one
ConvolutionBackwardBackward0 node (edges: grad_output, input, weight), whose own backward is PyTorch's
``_convolution_double_backward``.
"""

from __future__ import annotations

import itertools
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import ArgumentTypeError, error_class, warn_once
from ..errors import python_errors
from . import _core
from ._core import Node, Tensor, check_numel, dt, mode, record, saved
from .registry import register

__all__ = ["conv1d", "conv2d", "convolution", "pad"]

_TYPE = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
         "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}
_CTYPE = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
          "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _runtime(msg: str, hint: Optional[str] = None) -> Exception:
    return error_class("runtime")(msg, hint)


def _sizes(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def _type_name(v: Any) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, (list, tuple)) and v and all(isinstance(e, int) and not isinstance(e, bool) for e in v):
        return f"{type(v).__name__} of [int]" if isinstance(v, list) else "tuple of ints"
    return type(v).__name__


def _invalid_combination(fn: str, args: tuple, kwargs: dict, signatures: Sequence[str]) -> Exception:
    """PyTorch's argument parser's TypeError for arguments that match no signature of ``fn``."""
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    text = f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but expected one of:\n"
    text += "".join(f" * ({s})\n" for s in signatures)
    return ArgumentTypeError(text)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_list(v: Any, n: int) -> Optional[list]:
    """An ``int[n]`` argument of PyTorch's parser: an int is repeated n times, a sequence of ints kept as it
    is (any length: the kernels check it); None when ``v`` is neither."""
    if _is_int(v):
        return [int(v)] * n
    if isinstance(v, (list, tuple)) and all(_is_int(e) for e in v):
        return [int(e) for e in v]
    if isinstance(v, Tensor) and v._data.ndim <= 1 and not v._dtype.is_floating_point and v._dtype.name != "bool":
        return [int(e) for e in np.atleast_1d(v._data)]
    return None


def _expand_param(values: list, name: str, dim: int) -> list:
    if len(values) == 1:
        return values * dim
    if len(values) != dim:
        raise _runtime(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                       f"convolution dimensions, but got {name}={_sizes(values)}")
    return values


# --- numpy kernels -----------------------------------------------------------------------------------------


def _acc_dtype(dtype: dt.dtype) -> np.dtype:
    """float64 for every floating dtype (see the module docstring), int64 for the integer ones."""
    return np.dtype(np.float64) if dtype.is_floating_point else np.dtype(np.int64)


def _window(k: tuple, stride: Sequence[int], dilation: Sequence[int], out_sp: Sequence[int]) -> tuple:
    """The slices of the padded input that kernel position ``k`` multiplies, one per output position."""
    return tuple(slice(k[i] * dilation[i], k[i] * dilation[i] + stride[i] * (out_sp[i] - 1) + 1, stride[i])
                 for i in range(len(k)))


def _positions(ksize: Sequence[int]):
    return itertools.product(*[range(k) for k in ksize])


def _pad_np(x: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    if not any(padding):
        return x
    return np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])


def _out_spatial(in_sp: Sequence[int], ksize: Sequence[int], stride, padding, dilation) -> list:
    return [(in_sp[i] + 2 * padding[i] - dilation[i] * (ksize[i] - 1) - 1) // stride[i] + 1
            for i in range(len(ksize))]


def _conv_np(x: np.ndarray, w: np.ndarray, stride, padding, dilation, groups: int) -> np.ndarray:
    """out[n, o, *p] = sum over c and kernel positions k of xpad[n, g c, p * stride + k * dilation] w[o, c, k],
    in the accumulation dtype of ``x``/``w`` (float64 or int64); shapes (N, C, *S), (O, C/g, *K)."""
    n, c = x.shape[:2]
    o = w.shape[0]
    ksize = w.shape[2:]
    xp = _pad_np(x, padding)
    out_sp = _out_spatial(x.shape[2:], ksize, stride, padding, dilation)
    cg, og = c // groups, o // groups
    npos = int(np.prod(out_sp)) if out_sp else 1
    xg = xp.reshape((n, groups, cg) + xp.shape[2:])
    wg = w.reshape((groups, og, cg) + tuple(ksize))
    acc = np.zeros((groups, n * npos, og), dtype=x.dtype)
    for k in _positions(ksize):
        xs = xg[(slice(None),) * 3 + _window(k, stride, dilation, out_sp)]  # (N, g, cg, *out)
        cols = np.moveaxis(xs, 1, 0).reshape(groups, n, cg, npos).transpose(0, 1, 3, 2).reshape(groups, n * npos, cg)
        acc += np.matmul(cols, np.swapaxes(wg[(slice(None),) * 3 + k], 1, 2))  # (g, N*P, og)
    out = acc.reshape(groups, n, npos, og).transpose(1, 0, 3, 2).reshape((n, o) + tuple(out_sp))
    return out


def _conv_grad_input_np(go: np.ndarray, w: np.ndarray, in_shape: tuple, stride, padding, dilation,
                        groups: int) -> np.ndarray:
    """d out / d input contracted with ``go``: the transposed convolution, cropped to the input's size."""
    n, c = in_shape[:2]
    o = w.shape[0]
    ksize = w.shape[2:]
    out_sp = go.shape[2:]
    cg, og = c // groups, o // groups
    padded = tuple(in_shape[2 + i] + 2 * padding[i] for i in range(len(ksize)))
    gxp = np.zeros((n, groups, cg) + padded, dtype=go.dtype)
    gog = go.reshape((n, groups, og) + tuple(out_sp))
    wg = w.reshape((groups, og, cg) + tuple(ksize))
    for k in _positions(ksize):
        contrib = np.einsum("ngo...,goc->ngc...", gog, wg[(slice(None),) * 3 + k], optimize=True)
        gxp[(slice(None),) * 3 + _window(k, stride, dilation, out_sp)] += contrib
    crop = tuple(slice(padding[i], padding[i] + in_shape[2 + i]) for i in range(len(ksize)))
    return gxp[(slice(None),) * 3 + crop].reshape(in_shape)


def _conv_grad_weight_np(go: np.ndarray, x: np.ndarray, w_shape: tuple, stride, padding, dilation,
                         groups: int) -> np.ndarray:
    """d out / d weight contracted with ``go``: for each kernel position, the sum over the batch and the
    output positions of grad_output times the input it met."""
    n, c = x.shape[:2]
    o = w_shape[0]
    ksize = w_shape[2:]
    out_sp = go.shape[2:]
    cg, og = c // groups, o // groups
    xp = _pad_np(x, padding)
    xg = xp.reshape((n, groups, cg) + xp.shape[2:])
    gog = go.reshape((n, groups, og) + tuple(out_sp))
    gw = np.zeros((groups, og, cg) + tuple(ksize), dtype=go.dtype)
    for k in _positions(ksize):
        xs = xg[(slice(None),) * 3 + _window(k, stride, dilation, out_sp)]
        gw[(slice(None),) * 3 + k] = np.einsum("ngo...,ngc...->goc", gog, xs, optimize=True)
    return gw.reshape(w_shape)


# --- the op ------------------------------------------------------------------------------------------------


class _ConvParams:
    __slots__ = ("stride", "padding", "dilation", "groups")

    def __init__(self, stride: list, padding: list, dilation: list, groups: int) -> None:
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups


class ConvolutionBackward0(Node):
    __slots__ = ("params", "has_bias")
    formula = ("input: conv_transpose(grad, weight); weight: correlation of input with grad; "
               "bias: grad summed over the batch and positions")

    def apply(self, grads):
        g = grads[0]
        x = self._unpack(0)
        w = self._unpack(1)
        needs = self._needs
        gx, gw, gb = convolution_backward(g, x, w, self.params, (needs[0], needs[1], self.has_bias and needs[2]))
        return (gx, gw, gb)


class ConvolutionBackwardBackward0(Node):
    """``convolution_backward`` as one differentiable op (outputs grad_input, grad_weight, grad_bias; edges
    grad_output, input, weight), with PyTorch's ``_convolution_double_backward``."""

    __slots__ = ("params", "num_outputs")
    formula = ("grad_output: conv(ggI, weight) + conv(input, ggW) + ggb; input: conv_transpose(grad_output, ggW); "
               "weight: correlation of ggI with grad_output")

    def apply(self, grads):
        ggi, ggw, ggb = (list(grads) + [None, None, None])[:3]
        go = self._unpack(0)
        x = self._unpack(1)
        w = self._unpack(2)
        n = self._needs
        p = self.params
        g_go = g_x = g_w = None
        if n[0]:
            parts = []
            if ggi is not None:
                parts.append(convolution(ggi, w, None, p))
            if ggw is not None:
                parts.append(convolution(x, ggw, None, p))
            if ggb is not None:
                shape = [1] * go._data.ndim
                shape[1] = -1
                parts.append(ggb.reshape(shape).expand(go._data.shape))
            for t in parts:
                g_go = t if g_go is None else g_go + t
        if n[1] and ggw is not None:
            g_x = convolution_backward(go, x, ggw, p, (True, False, False))[0]
        if n[2] and ggi is not None:
            g_w = convolution_backward(go, ggi, w, p, (False, True, False))[1]
        return (g_go, g_x, g_w)


def _wrap_results(arrays: list, dtype: dt.dtype, inputs: tuple, params: _ConvParams) -> list:
    """Tensors of ``arrays`` (None stays None); with grad mode on and an input requiring grad (a backward
    with create_graph=True) they are the outputs of one ConvolutionBackwardBackward0 node."""
    present = [i for i, a in enumerate(arrays) if a is not None]
    outs: list = [None] * len(arrays)
    if not present:
        return outs
    first = present[0]
    out0, node = record(ConvolutionBackwardBackward0, arrays[first], dtype, inputs)
    outs[first] = out0
    if node is not None:
        node.num_outputs = 3
        node.params = params
        node._save(saved(inputs[0]), saved(inputs[1]), saved(inputs[2]))
        out0._output_nr = first
    for i in present[1:]:
        a = arrays[i]
        t = Tensor._from_data(a if a.dtype == dtype.np else a.astype(dtype.np), dtype)
        if node is not None:
            t._grad_fn = node
            t._output_nr = i
            t._requires_grad = True
            if _core.value_sink is not None:
                _core.value_sink(t, node)
        outs[i] = t
    return outs


def convolution_backward(grad_output: Tensor, input: Tensor, weight: Tensor, params: _ConvParams,
                         mask: tuple) -> list:
    """[grad_input, grad_weight, grad_bias] of a convolution (None where ``mask`` is False)."""
    dtype = input._dtype
    acc = _acc_dtype(dtype)
    go = grad_output._data.astype(acc, copy=False)
    arrays: list = [None, None, None]
    if mask[0]:
        check_numel(input._data.size)
        arrays[0] = _conv_grad_input_np(go, weight._data.astype(acc, copy=False), input._data.shape,
                                        params.stride, params.padding, params.dilation, params.groups)
    if mask[1]:
        arrays[1] = _conv_grad_weight_np(go, input._data.astype(acc, copy=False), weight._data.shape,
                                         params.stride, params.padding, params.dilation, params.groups)
    if mask[2]:
        arrays[2] = go.sum(axis=(0,) + tuple(range(2, go.ndim)))
    arrays = [None if a is None else np.ascontiguousarray(a, dtype=dtype.np) for a in arrays]
    return _wrap_results(arrays, dtype, (grad_output, input, weight), params)


def convolution(input: Tensor, weight: Tensor, bias: Optional[Tensor], params: _ConvParams) -> Tensor:
    """The convolution of checked arguments (batched input, expanded params): ConvolutionBackward0."""
    dtype = input._dtype
    acc = _acc_dtype(dtype)
    out_sp = _out_spatial(input._data.shape[2:], weight._data.shape[2:], params.stride, params.padding,
                          params.dilation)
    n_out = input._data.shape[0] * weight._data.shape[0] * int(np.prod(out_sp))
    check_numel(n_out)
    data = _conv_np(input._data.astype(acc, copy=False), weight._data.astype(acc, copy=False), params.stride,
                    params.padding, params.dilation, params.groups)
    if bias is not None:
        data = data + bias._data.astype(acc, copy=False).reshape((1, -1) + (1,) * len(out_sp))
    out, node = record(ConvolutionBackward0, np.ascontiguousarray(data, dtype=dtype.np), dtype, (input, weight, bias))
    if node is not None:
        node.params = params
        node.has_bias = bias is not None
        node._save(saved(input), saved(weight))
    return out


_CONV_SIGNATURES = {
    n: (f"Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, "
        f"tuple of ints dilation = 1, int groups = 1",
        f"Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = \"valid\", "
        f"tuple of ints dilation = 1, int groups = 1")
    for n in (1, 2)
}

def _check_shape_forward(input: Tensor, weight: Tensor, bias: Optional[Tensor], p: _ConvParams) -> None:
    k = input._data.ndim
    ws = weight._data.shape
    groups = p.groups
    if any(v < 0 for v in p.padding):
        raise _runtime("negative padding is not supported")
    if any(v <= 0 for v in p.stride):
        raise _runtime("non-positive stride is not supported")
    if any(v <= 0 for v in p.dilation):
        raise _runtime("non-positive dilation is not supported")
    if len(ws) != k:
        raise _runtime(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {_sizes(ws)}, but got "
                       f"{k}-dimensional input of size {_sizes(input._data.shape)} instead")
    if ws[0] < groups:
        raise _runtime(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                       f"weight of size {_sizes(ws)} instead")
    if ws[0] % groups:
        raise _runtime(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                       f"weight of size [{_sizes(ws)}] instead")
    if input._data.shape[1] != ws[1] * groups:
        raise _runtime(f"Given groups={groups}, weight of size {_sizes(ws)}, expected input"
                       f"{_sizes(input._data.shape)} to have {ws[1] * groups} channels, but got "
                       f"{input._data.shape[1]} channels instead",
                       "The layer's in_channels must equal the input's size at dim 1 (channels first: N, C, then the spatial dims).")
    if bias is not None and not (bias._data.ndim == 1 and bias._data.shape[0] == ws[0]):
        raise _runtime(f"Given weight of size {_sizes(ws)}, expected bias to be 1-dimensional with {ws[0]} elements, "
                       f"but got bias of size {_sizes(bias._data.shape)} instead")
    padded = [input._data.shape[i] + 2 * p.padding[i - 2] for i in range(2, k)]
    kernel = [p.dilation[i - 2] * (ws[i] - 1) + 1 for i in range(2, k)]
    if any(a < b for a, b in zip(padded, kernel)):
        raise _runtime(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                       f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size")


def _check_dtypes(input: Tensor, weight: Tensor, bias: Optional[Tensor]) -> None:
    """The dtype checks of the backend PyTorch picks: oneDNN for a float32 input, the slow kernel otherwise."""
    it, wt = input._dtype, weight._dtype
    if it.name == "float32":
        if wt is not it or (bias is not None and bias._dtype is not it):
            other = wt if wt is not it else bias._dtype
            raise _runtime(f"Input type (torch.{_TYPE[it.name]}Tensor) and weight type (torch.{_TYPE[other.name]}"
                           "Tensor) should be the same or input should be a MKLDNN tensor and weight is a dense "
                           "tensor")
        return
    if it.name == "bool":
        raise error_class("runtime")(f"\"slow_conv2d_cpu\" not implemented for 'Bool'")
    if wt is not it:
        raise _runtime(f"expected scalar type {_TYPE[it.name]} but found {_TYPE[wt.name]}")


def _conv_nd(fn: str, nd: int, args: tuple, kwargs: dict) -> Tensor:
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    if len(args) > len(names):
        raise _invalid_combination(fn, args, kwargs, _CONV_SIGNATURES[nd])
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in bound:
            raise _invalid_combination(fn, args, kwargs, _CONV_SIGNATURES[nd])
        bound[k] = v
    bad = _invalid_combination(fn, args, kwargs, _CONV_SIGNATURES[nd])
    input, weight = bound.get("input"), bound.get("weight")
    bias = bound.get("bias")
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor) or not (bias is None or isinstance(bias, Tensor)):
        raise bad
    stride = _int_list(bound.get("stride", 1), nd)
    pad_arg = bound.get("padding", 0)
    padding = pad_arg if isinstance(pad_arg, str) else _int_list(pad_arg, nd)
    dilation = _int_list(bound.get("dilation", 1), nd)
    groups = bound.get("groups", 1)
    if stride is None or padding is None or dilation is None or not _is_int(groups):
        raise bad
    if bias is not None and bias._dtype is not input._dtype:
        raise _runtime(f"Input type ({_CTYPE[input._dtype.name]}) and bias type ({_CTYPE[bias._dtype.name]}) should "
                       "be the same")
    # batchify
    want = nd + 1
    batched = input._data.ndim == want + 1
    if input._data.ndim != want and not batched:
        raise _runtime(f"Expected {want}D (unbatched) or {want + 1}D (batched) input to {fn}, but got input of size: "
                       f"{_sizes(input._data.shape)}")
    x = input if batched else input.unsqueeze(0)
    out = _convolution_checked(x, weight, bias, stride, padding, dilation, groups)
    return out if batched else out.squeeze(0)


def _convolution_checked(x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: list, padding: Any,
                         dilation: list, groups: int) -> Tensor:
    k = weight._data.ndim
    if k <= 2:
        raise _runtime("weight should have at least three dimensions")
    dim = k - 2
    if isinstance(padding, str):
        stride = _expand_param(stride, "stride", dim)
        dilation = _expand_param(dilation, "dilation", dim)
        if padding == "valid":
            padding = [0] * dim
        elif padding == "same":
            return _convolution_same(x, weight, bias, stride, dilation, groups)
        else:
            raise _runtime(f"Invalid padding string: '{padding}'")
    if groups <= 0:
        raise _runtime("non-positive groups is not supported")
    params = _ConvParams(_expand_param(stride, "stride", dim), _expand_param(padding, "padding", dim),
                         _expand_param(dilation, "dilation", dim), groups)
    _check_shape_forward(x, weight, bias, params)
    _check_dtypes(x, weight, bias)
    return convolution(x, weight, bias, params)


def _convolution_same(x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: list, dilation: list,
                      groups: int) -> Tensor:
    k = weight._data.ndim
    if groups <= 0:
        raise _runtime("non-positive groups is not supported")
    dim = k - 2
    if k != x._data.ndim:
        raise _runtime(f"Expected {k}-dimensional input for {k}-dimensional weight{_sizes(weight._data.shape)}, but "
                       f"got {x._data.ndim}-dimensional input of size {_sizes(x._data.shape)} instead")
    if any(s != 1 for s in stride):
        raise _runtime("padding='same' is not supported for strided convolutions")
    left, right = [], []
    for i in range(dim):
        total = dilation[i] * (weight._data.shape[i + 2] - 1)
        left.append(total // 2)
        right.append(total - total // 2)
    if left == right:
        return _convolution_checked(x, weight, bias, stride, left, dilation, groups)
    warn_once("conv_same_even", "other", "Using padding='same' with even kernel lengths and odd dilation may "
              "require a zero-padded copy of the input be created")
    pad_nd = [0] * (2 * dim)
    for i in range(dim):
        pad_nd[2 * (dim - 1 - i) + 1] = right[i] - left[i]  # F.pad's order: last dim first
    return _convolution_checked(constant_pad_nd(x, pad_nd, 0.0), weight, bias, stride, left, dilation, groups)


@python_errors
def conv1d(*args: Any, **kwargs: Any) -> Tensor:
    """``F.conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``: input (N, C, L) or
    (C, L), weight (O, C/groups, K); padding an int, a 1-tuple, 'valid' or 'same'.  ConvolutionBackward0."""
    return _conv_nd("conv1d", 1, args, kwargs)


@python_errors
def conv2d(*args: Any, **kwargs: Any) -> Tensor:
    """``F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``: input (N, C, H, W) or
    (C, H, W), weight (O, C/groups, kH, kW); padding an int, a pair, 'valid' or 'same'.  ConvolutionBackward0."""
    return _conv_nd("conv2d", 2, args, kwargs)


# --- F.pad ---------------------------------------------------------------------------------------------------


class ConstantPadNdBackward0(Node):
    __slots__ = ("pad",)
    formula = "self: constant_pad_nd(grad, -pad) (the part of grad without the padding)"

    def apply(self, grads):
        return (constant_pad_nd(grads[0], [-p for p in self.pad], 0.0),)


def _check_pad_length(nd: int, pad: list) -> None:
    if len(pad) % 2:
        raise _runtime("Padding length must be divisible by 2")
    if len(pad) // 2 > nd:
        raise _runtime(f"Padding length should be less than or equal to two times the input dimension but got "
                       f"padding length {len(pad)} and input of dimension {nd}")


def constant_pad_nd(input: Tensor, pad: list, value: float = 0.0) -> Tensor:
    """``torch.constant_pad_nd``: pad (or crop, for negative widths) the last len(pad)/2 dims, the last dim
    first (ConstantPadNdBackward0)."""
    shape = list(input._data.shape)
    nd = len(shape)
    _check_pad_length(nd, pad)
    crop: list = [slice(None)] * nd
    widths = [(0, 0)] * nd
    new_shape = list(shape)
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        new_shape[d] = shape[d] + lo + hi
        if new_shape[d] < 0:
            raise _runtime("narrow(): length must be non-negative.")
        start = max(-lo, 0)
        crop[d] = slice(start, max(shape[d] - max(-hi, 0), start))
        widths[d] = (max(lo, 0), max(hi, 0))
    check_numel(int(np.prod(new_shape)))
    if input._inference and input._requires_grad and mode.enabled and not mode.inference:
        return _constant_pad_composite(input, pad, value, new_shape)
    data = np.pad(input._data[tuple(crop)], widths, mode="constant", constant_values=value)
    data = np.ascontiguousarray(data, dtype=input._dtype.np).reshape(new_shape)
    out, node = record(ConstantPadNdBackward0, data, input._dtype, (input,))
    if node is not None:
        node.pad = [int(p) for p in pad]
    return out


def _constant_pad_composite(input: Tensor, pad: list, value: float, new_shape: list) -> Tensor:
    """constant_pad_nd of an inference tensor that requires grad, outside inference mode: autograd is not
    dispatched to for it, so ATen's composite runs and its inner ops record as they go, as in PyTorch 2.13:
    the input narrowed where a width is negative, a new tensor filled with ``value``, narrowed where a width
    is positive, then ``copy_`` of the one into the other (CopySlices into a narrowed output, CopyBackwards
    into the whole one; a narrowed inference input has no grad, and neither has the result then)."""
    from .inplace import copy_
    from .shape import narrow

    nd = input._data.ndim
    src = input
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        if lo < 0:
            src = narrow(src, d, -lo, src._data.shape[d] + lo)
        if hi < 0:
            src = narrow(src, d, 0, src._data.shape[d] + hi)
    out = Tensor._from_data(np.full(new_shape, value, dtype=input._dtype.np), input._dtype)
    dst = out
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        if lo > 0:
            dst = narrow(dst, d, lo, dst._data.shape[d] - lo)
        if hi > 0:
            dst = narrow(dst, d, 0, dst._data.shape[d] - hi)
    copy_(dst, src)
    return out


class _GatherBackward(Node):
    """A reflection / replication pad: each output element copies one input element (``index``); the
    gradient scatters back, adding where an input element was copied more than once."""

    __slots__ = ("index", "shape")

    def apply(self, grads):
        self._unpack(0)  # self is saved (PyTorch checks its version too)
        return (_scatter(grads[0], self.index, self.shape, type(self)),)


class _ScatterBackward(Node):
    """The pad's backward as a differentiable op: its gradient is the same gather (the pad) again."""

    __slots__ = ("index", "gather_cls")

    def apply(self, grads):
        return (_gather(grads[0], self.index, self.gather_cls),)


def _gather(t: Tensor, index: tuple, node_cls: type) -> Tensor:
    data = np.ascontiguousarray(t._data[index])
    check_numel(data.size)
    out, node = record(node_cls, data, t._dtype, (t,))
    if node is not None:
        node.index = index
        node.shape = t._data.shape
        node._save(saved(t))
    return out


def _scatter(g: Tensor, index: tuple, shape: tuple, gather_cls: type) -> Tensor:
    data = np.zeros(shape, dtype=g._data.dtype)
    np.add.at(data, index, g._data)
    out, node = record(_SCATTER[gather_cls], data, g._dtype, (g,))
    if node is not None:
        node.index = index
        node.gather_cls = gather_cls
    return out


_PAD_NODES = {}
_SCATTER: dict = {}
for _mode, _title in (("reflect", "ReflectionPad"), ("replicate", "ReplicationPad")):
    for _k in (1, 2, 3):
        _name = f"{_title}{_k}DBackward0"
        _cls = type(_name, (_GatherBackward,), {"__slots__": (), "__module__": __name__,
                                                  "formula": f"self: {_mode}_pad{_k}d_backward(grad)"})
        _PAD_NODES[(_mode, _k)] = _cls
        _SCATTER[_cls] = type(f"{_title}{_k}DBackwardBackward0", (_ScatterBackward,),
                              {"__slots__": (), "__module__": __name__, "formula": f"grad_output: {_mode} pad"})


def _index_pad(input: Tensor, pad: list, mode_: str) -> Tensor:
    nd = input._data.ndim
    k = len(pad) // 2
    shape = input._data.shape
    idx = []
    for d in range(nd):
        i = nd - 1 - d
        if i >= k:
            idx.append(np.arange(shape[d]))
            continue
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = shape[d]
        if mode_ == "reflect" and (lo >= n or hi >= n):
            raise _runtime(f"Argument #4: Padding size should be less than the corresponding input dimension, but "
                           f"got: padding ({lo}, {hi}) at dimension {d} of input {_sizes(shape)}")
        pos = np.arange(-lo, n + hi)
        if mode_ == "reflect":
            period = 2 * (n - 1)
            r = np.mod(pos, period) if period else np.zeros_like(pos)
            pos = np.where(r >= n, period - r, r)
        else:
            pos = np.clip(pos, 0, n - 1)
        idx.append(pos)
    return _gather(input, np.ix_(*idx), _PAD_NODES[(mode_, k)])


@python_errors
def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: Optional[float] = None) -> Tensor:
    """``F.pad(input, pad, mode='constant', value=None)``: ``pad`` lists (left, right) widths from the last dim
    backwards.  'constant' (ConstantPadNdBackward0; negative widths crop), 'reflect' / 'replicate'
    (Reflection/ReplicationPad{1,2,3}DBackward0: the last 1, 2 or 3 dims of a batched or unbatched input);
    'circular' is not supported by gradcli.  PyTorch's messages for bad widths and modes."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"pad(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(pad, (list, tuple)):
        raise ArgumentTypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not {type(pad).__name__}")
    for i, e in enumerate(pad):
        if not _is_int(e):
            raise ArgumentTypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but found element of "
                                    f"type {type(e).__name__} at pos {i}")
    widths = [int(e) for e in pad]
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ArgumentTypeError(f"pad(): argument 'value' (position 4) must be float, not {type(value).__name__}")
    nd = input._data.ndim
    if mode == "constant":
        return constant_pad_nd(input, widths, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise _runtime(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode == "circular":
        raise error_class("unsupported")("F.pad(mode='circular') is not supported by gradcli",
                                         "Use mode='constant', 'reflect' or 'replicate'.")
    if mode not in ("reflect", "replicate"):
        raise error_class("runtime")(f"Unrecognised padding mode {mode}", torch_type=NotImplementedError)
    _check_pad_length(nd, widths)
    k = len(widths) // 2
    if k not in (1, 2, 3) or nd not in (k + 1, k + 2):
        raise error_class("runtime")(
            f"Padding size {len(widths)} is not supported for {nd}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)", torch_type=NotImplementedError)
    return _index_pad(input, widths, mode)


# --- registration --------------------------------------------------------------------------------------------


def _f64(*shape, seed=0, requires_grad=True):
    from .creation import tensor

    rng = np.random.default_rng(seed + 31 * len(shape) + sum(shape))
    return tensor(rng.uniform(-1.0, 1.0, size=shape).tolist(), dtype=dt.float64, requires_grad=requires_grad)


register("conv1d", conv1d, "conv", torch=("conv1d",), F=("conv1d",), methods=(),
         nodes=("ConvolutionBackward0", "ConvolutionBackwardBackward0"), formula=ConvolutionBackward0.formula,
         sample=lambda: ((_f64(2, 4, 7), _f64(6, 2, 3, seed=1), _f64(6, seed=2)),
                         {"stride": 2, "padding": 1, "groups": 2}))
register("conv2d", conv2d, "conv", torch=("conv2d",), F=("conv2d",), methods=(),
         nodes=("ConvolutionBackward0", "ConvolutionBackwardBackward0"), formula=ConvolutionBackward0.formula,
         sample=lambda: ((_f64(2, 2, 5, 4), _f64(3, 2, 3, 2, seed=1), _f64(3, seed=2)),
                         {"padding": (1, 0), "dilation": (1, 2)}))
register("constant_pad_nd", constant_pad_nd, "conv", torch=("constant_pad_nd",), methods=(),
         nodes=("ConstantPadNdBackward0",), formula=ConstantPadNdBackward0.formula,
         sample=lambda: ((_f64(2, 3), [1, -1, 2, 0]), {}))
register("pad", pad, "conv", torch=(), F=("pad",), methods=(),
         nodes=("ConstantPadNdBackward0", "ReflectionPad1DBackward0", "ReflectionPad2DBackward0",
                "ReplicationPad1DBackward0", "ReplicationPad2DBackward0"),
         formula="constant: the slice without the padding; reflect/replicate: scatter-add to the copied elements",
         sample=lambda: ((_f64(1, 3, 4), (2, 1)), {"mode": "reflect"}))
