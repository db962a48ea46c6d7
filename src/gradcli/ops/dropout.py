"""Dropout: ``F.dropout`` / ``F.dropout1d`` / ``F.dropout2d`` (over ATen's ``dropout`` / ``feature_dropout``, which
gradcli does not expose as ``torch.dropout`` / ``torch.feature_dropout``).

As PyTorch 2.13's CPU path, which is not a fused kernel but the composite ``_dropout_impl``
(aten/src/ATen/native/Dropout.cpp): when ``p == 0``, ``train`` is False or the input is empty the input itself
is returned (the same tensor object); ``p == 1`` is ``input * zeros(())``; otherwise ``noise =
empty_like(input)`` (feature dropout: shape (N, C, 1, ...)), ``noise.bernoulli_(1 - p)``, ``noise.div_(1 -
p)`` and ``input * noise`` (``mul_`` in place), so the grad_fn is MulBackward0 and the noise a constant.

The mask.  ``bernoulli_(float p)`` on a CPU tensor has two kernels in PyTorch's MKL builds: on an Intel
CPU, MKL's ``viRngBernoulli`` on an MCG31 stream seeded by one 32-bit draw; on any other vendor (AMD, the
reference host the cases are recorded on) the default kernel, one ``uniform_real_distribution<double>``
draw per element in memory order (53 bits of a 64-bit draw) and ``u < p``.  gradcli follows the default
kernel (:meth:`gradcli.autograd.random.Generator.bernoulli_`): after ``torch.manual_seed`` its masks are
PyTorch's bit for bit on the reference host, and every later draw of the stream too.  PyTorch on an Intel
host draws other masks (a host dependence of PyTorch itself, which gradcli does not reproduce).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd import random as _random
from ..errors import ArgumentTypeError, error_class, warn
from ..errors import python_errors
from ._core import Tensor
from .registry import register

__all__ = ["dropout", "dropout1d", "dropout2d", "feature_dropout", "torch_dropout"]


def _value_error(p: Any) -> Exception:
    from ..nn._errors import nn_error

    return nn_error(ValueError, f"dropout probability has to be between 0 and 1, but got {p}")


def _check_p(p: Any) -> None:
    """F.dropout's Python check ``if p < 0.0 or p > 1.0`` (a non-number: Python's TypeError of ``<``)."""
    if isinstance(p, Tensor):
        p = p.item()
    if not isinstance(p, (int, float)):
        raise ArgumentTypeError(f"'<' not supported between instances of '{type(p).__name__}' and 'float'")
    if p < 0.0 or p > 1.0:
        raise _value_error(p)


def _need_tensor(fn: str, input: Any) -> None:
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


def _need_dim(input: Any) -> None:
    """``input.dim()`` of F.dropout1d/2d's Python code on a non-tensor: Python's AttributeError."""
    if not isinstance(input, Tensor):
        from ..nn._errors import nn_error

        raise nn_error(AttributeError, f"'{type(input).__name__}' object has no attribute 'dim'")


def _impl(fn: str, input: Any, p: Any, train: Any, feature: bool, inplace: bool) -> Tensor:
    """ATen's ``_dropout_impl`` (see the module docstring); ``p`` already a float."""
    _need_tensor(fn, input)
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise ArgumentTypeError(f"{fn}(): argument 'p' (position 2) must be float, not {type(p).__name__}")
    if not isinstance(train, bool):
        raise ArgumentTypeError(f"{fn}(): argument 'train' (position 3) must be bool, not {type(train).__name__}")
    p = float(p)
    if not 0 <= p <= 1:
        raise error_class("runtime")(f"dropout probability has to be between 0 and 1, but got {_fmt(p)}")
    if p == 0 or not train or input._data.size == 0:
        return input
    if p == 1:
        zeros = Tensor._from_data(np.zeros((), dtype=input._dtype.np), input._dtype)
        return input.mul_(zeros) if inplace else input * zeros
    shape = input._data.shape
    if feature:
        if input._data.ndim < 2:
            raise error_class("runtime")("Feature dropout requires at least 2 dimensions in the input")
        shape = shape[:2] + (1,) * (input._data.ndim - 2)
    data = np.empty(shape, dtype=input._dtype.np)
    _random.default_generator.bernoulli_(data, 1 - p)
    noise = Tensor._from_data(data, input._dtype)
    noise.div_(1 - p)  # a float32 noise divides by (1 - p) rounded to float32, as PyTorch's div_ by a scalar
    return input.mul_(noise) if inplace else input * noise


def _fmt(p: float) -> str:
    """A double as C++'s ostream prints it (6 significant digits)."""
    return f"{p:g}"


@python_errors
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """``F.dropout(input, p=0.5, training=True, inplace=False)``: each element zeroed with probability p, the
    others scaled by 1/(1-p) (MulBackward0); the input itself when not training.  ValueError for p outside
    [0, 1]."""
    _check_p(p)
    return _impl("dropout_" if inplace else "dropout", input, p, training, False, inplace)


@python_errors
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """``F.dropout1d``: whole channels of a (N, C, L) or (C, L) input zeroed with probability p."""
    _check_p(p)
    _need_dim(input)
    nd = input._data.ndim
    if nd not in (2, 3):
        raise error_class("runtime")(
            f"dropout1d: Expected 2D or 3D input, but received a {nd}D input. Note that dropout1d exists to provide "
            "channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch "
            "dimension (i.e. 2D or 3D inputs).")
    return _feature_batchify(input, p, training, inplace, nd == 3)


@python_errors
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """``F.dropout2d``: whole channels of a (N, C, H, W) input zeroed with probability p; PyTorch's warnings
    for other ranks (a 3-d input is taken as (N, C, L))."""
    _check_p(p)
    _need_dim(input)
    nd = input._data.ndim
    if nd not in (3, 4):
        warn("other", f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and will result in an "
             "error in a future release. To retain the behavior and silence this warning, please use dropout instead. "
             "Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a "
             "channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).")
    if nd == 3:
        warn("other", "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
             "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
             "change in a future release to interpret the input as one without a batch dimension, i.e. shape (C, H, "
             "W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.")
    return _impl("feature_dropout_" if inplace else "feature_dropout", input, p, training, True, inplace)


def _feature_batchify(input: Tensor, p: float, training: bool, inplace: bool, batched: bool) -> Tensor:
    fn = "feature_dropout_" if inplace else "feature_dropout"
    if batched:
        return _impl(fn, input, p, training, True, inplace)
    x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _impl(fn, x, p, training, True, inplace)
    return out.squeeze_(0) if inplace else out.squeeze(0)


@python_errors
def torch_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``torch.dropout(input, p, train)``: the native op (RuntimeError for p outside [0, 1])."""
    return _impl("dropout", input, p, train, False, False)


@python_errors
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``torch.feature_dropout(input, p, train)``: one draw per (N, C) plane."""
    return _impl("feature_dropout", input, p, train, True, False)


register("dropout", dropout, "dropout", torch=(), F=("dropout",), methods=(), nodes=("MulBackward0",),
         formula="input: grad * noise (the mask scaled by 1/(1-p))",
         notes="random: the mask comes from the generator (not gradchecked)")
register("dropout1d", dropout1d, "dropout", torch=(), F=("dropout1d",), methods=(), nodes=("MulBackward0",),
         formula="input: grad * noise (one mask value per channel)", notes="random")
register("dropout2d", dropout2d, "dropout", torch=(), F=("dropout2d",), methods=(), nodes=("MulBackward0",),
         formula="input: grad * noise (one mask value per channel)", notes="random")
