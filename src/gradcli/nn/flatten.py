"""torch.nn.Flatten and Unflatten (``torch/nn/modules/flatten.py``): ``input.flatten(start_dim, end_dim)``,
``input.unflatten(dim, unflattened_size)``."""

from __future__ import annotations

from ..autograd.tensor import Tensor
from ..data.protocol import type_name
from ._errors import nn_error
from .module import Module

__all__ = ["Flatten", "Unflatten"]


def _require_method(input, name: str) -> None:
    """PyTorch's forward calls ``input.<name>(...)`` on whatever it is given: a non-tensor (``None``, a list)
    fails there with Python's AttributeError, a ``runtime`` error (raises it)."""
    if not isinstance(input, Tensor):
        raise nn_error(AttributeError, f"'{type_name(input)}' object has no attribute '{name}'")


class Flatten(Module):
    """Flatten dims ``start_dim..end_dim`` (default: all but the batch dim)."""

    __module__ = "torch.nn.modules.flatten"

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        _require_method(input, "flatten")
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (a tuple or list of ints: PyTorch's TypeErrors otherwise)."""

    __module__ = "torch.nn.modules.flatten"

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        self._require_tuple_int(unflattened_size)
        self.dim = dim
        self.unflattened_size = unflattened_size

    @staticmethod
    def _require_tuple_int(input) -> None:
        if isinstance(input, (tuple, list)):
            for idx, elem in enumerate(input):
                if not isinstance(elem, int):
                    raise nn_error(TypeError, "unflattened_size must be tuple of ints, "
                                   f"but found element of type {type(elem).__name__} at pos {idx}")
            return
        raise nn_error(TypeError, f"unflattened_size must be a tuple of ints, but found type {type(input).__name__}")

    def forward(self, input: Tensor) -> Tensor:
        _require_method(input, "unflatten")
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
