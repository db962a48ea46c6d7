"""torch.nn.init: in-place initialisation under no_grad, drawing from the random stream as PyTorch does.

Each function is ``torch/nn/init.py``'s, operation for operation: the bound or standard deviation is
computed in Python floats exactly as PyTorch computes it, then one ``uniform_``/``normal_``/``fill_``/
``zero_`` of the tensor runs under ``torch.no_grad()``, so the values after ``torch.manual_seed(n)`` are
PyTorch's bit for bit (the engine's generator is PyTorch's mt19937 with its CPU transforms).  Errors are
PyTorch's ValueErrors (kind ``runtime``); a zero-element tensor gives PyTorch's warning and is left alone
by the kaiming functions.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from ..errors import python_errors
from ..autograd import grad_mode
from ..autograd.tensor import Tensor
from ..errors import warn
from ._errors import nn_error

__all__ = [
    "calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_", "xavier_uniform_",
    "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d")


def _tensor(fn: str, t: Any) -> Tensor:
    if not isinstance(t, Tensor):
        raise nn_error(AttributeError, f"'{type(t).__name__}' object has no attribute "
                       f"'{'dim' if fn.startswith(('xavier', 'kaiming')) else fn}'")
    return t


def calculate_gain(nonlinearity: str, param: Optional[float] = None) -> float:
    """The recommended gain for a nonlinearity (1, 5/3 for tanh, sqrt(2) for relu, ...)."""
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope: Any = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise nn_error(ValueError, f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise nn_error(ValueError, f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with U(a, b) draws."""
    _tensor("uniform_", tensor)
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with N(mean, std^2) draws."""
    _tensor("normal_", tensor)
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    _tensor("fill_", tensor)
    with grad_mode.no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with 1."""
    _tensor("fill_", tensor)
    with grad_mode.no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with 0."""
    _tensor("zero_", tensor)
    with grad_mode.no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    """The identity matrix (a 2-d tensor only)."""
    _tensor("ndimension", tensor)
    if tensor.dim() != 2:
        raise nn_error(ValueError, "Only tensors with 2 dimensions are supported")
    from ..ops import creation

    with grad_mode.no_grad():
        tensor.copy_(creation.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    dimensions = tensor.dim()
    if dimensions < 2:
        raise nn_error(ValueError, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise nn_error(ValueError, f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot)."""
    _tensor("xavier_uniform_", tensor)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    with grad_mode.no_grad():
        return tensor.uniform_(-a, a, generator=generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out)) (Glorot)."""
    _tensor("xavier_normal_", tensor)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    with grad_mode.no_grad():
        return tensor.normal_(0.0, std, generator=generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: Any = None) -> Tensor:
    """U(-bound, bound) with bound = gain * sqrt(3 / fan_mode) (He); nn.Linear's weight uses a=sqrt(5)."""
    _tensor("kaiming_uniform_", tensor)
    if 0 in tensor.shape:
        warn("other", "Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    with grad_mode.no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: Any = None) -> Tensor:
    """N(0, std^2) with std = gain / sqrt(fan_mode) (He)."""
    _tensor("kaiming_normal_", tensor)
    if 0 in tensor.shape:
        warn("other", "Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    with grad_mode.no_grad():
        return tensor.normal_(0, std, generator=generator)


# torch.nn.init is Python: a value a file hands it fails with Python's error and message, as PyTorch's kind
# (errors.python_errors), never as an internal error
for _name in __all__:
    globals()[_name] = python_errors(globals()[_name])
