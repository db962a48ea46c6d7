"""torch.nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters.

As ``torch/nn/utils/clip_grad.py`` and ``convert_parameters.py`` of PyTorch 2.13 on CPU tensors (the
foreach path: one 2-norm per gradient, then the norm of their stack), under ``no_grad``:

* ``clip_grad_norm_(parameters, max_norm, norm_type=2.0)`` returns the total norm (a 0-d tensor) and
  multiplies every gradient by ``clamp(max_norm / (total_norm + 1e-6), max=1.0)``; an empty generator
  warns; ``error_if_nonfinite`` raises PyTorch's RuntimeError for a nan/inf total;
* ``clip_grad_value_(parameters, clip_value)`` clamps every gradient to [-clip_value, clip_value];
* ``parameters_to_vector`` is ``torch.cat([p.view(-1) ...])`` (CatBackward0), ``vector_to_parameters``
  sets each ``param.data`` from a slice of the vector.
"""

from __future__ import annotations

import types
from typing import Any

from ..errors import python_errors
from ..autograd import grad_mode
from ..autograd.tensor import Tensor
from ..errors import warn
from ._errors import nn_error
from .parameter import typename

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _params(parameters: Any) -> list:
    if isinstance(parameters, Tensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Any = None) -> Tensor:
    """Scale the gradients so that their total ``norm_type`` norm is at most ``max_norm``; returns that norm."""
    from ..ops import creation, shape
    from ..ops.elementwise import clamp

    is_generator = isinstance(parameters, types.GeneratorType)
    params = _params(parameters)
    if is_generator and not params:
        warn("other", "`parameters` is an empty generator, no gradient clipping will occur.")
    with grad_mode.no_grad():
        grads = [p.grad for p in params if p.grad is not None]
        # PyTorch's order: _get_total_norm (norm_type as float; no gradients: tensor(0.)), then
        # _clip_grads_with_norm_ (max_norm as float, also when there is no gradient to clip)
        norm_type = float(norm_type)
        if not grads:
            total_norm = creation.tensor(0.0)
            float(max_norm)
            return total_norm
        norms = [g.norm(norm_type) for g in grads]
        total_norm = shape.stack(norms).norm(norm_type)
        if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
            raise nn_error(RuntimeError, f"The total norm of order {norm_type} for gradients from `parameters` is "
                           "non-finite, so it cannot be clipped. To disable this error and scale the gradients by "
                           "the non-finite norm anyway, set `error_if_nonfinite=False`")
        clip_coef = float(max_norm) / (total_norm + 1e-6)
        clip_coef_clamped = clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)
    return total_norm


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    """Clamp every gradient to [-clip_value, clip_value] in place."""
    params = _params(parameters)
    clip_value = float(clip_value)
    with grad_mode.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters: Any) -> Tensor:
    """One 1-d tensor of every parameter, flattened and concatenated (CatBackward0)."""
    from ..ops import shape

    if isinstance(parameters, Tensor):
        raise nn_error(TypeError, f"expected an iterable of tensors, got {typename(parameters)}")
    return shape.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Any, parameters: Any) -> None:
    """Copy consecutive slices of ``vec`` into each parameter's ``.data``."""
    if not isinstance(vec, Tensor):
        raise nn_error(TypeError, f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n


# torch.nn.utils is Python: a value a file hands it fails with Python's error and message, as PyTorch's kind
# (errors.python_errors), never as an internal error
for _name in __all__:
    globals()[_name] = python_errors(globals()[_name])
