"""torch.nn.LayerNorm (``torch/nn/modules/normalization.py``): ``normalized_shape`` an int or a sequence,
``weight``/``bias`` of that shape initialised by ``init.ones_``/``init.zeros_`` (no random draws),
``elementwise_affine=False`` / ``bias=False`` register None; ``forward`` is ``F.layer_norm``
(gradcli.ops.normalization); ``print``: ``LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)``."""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import creation
from ..ops import normalization as _N
from . import init
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["LayerNorm"]


class LayerNorm(Module):
    """Normalises over the last ``len(normalized_shape)`` dims (F.layer_norm), then ``* weight + bias``."""

    __module__ = "torch.nn.modules.normalization"

    @python_errors
    @tracked_after_init
    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        factory = {} if dtype is None else {"dtype": dtype}
        if self.elementwise_affine:
            self.weight = Parameter(creation.empty(self.normalized_shape, **factory))
            if bias:
                self.bias = Parameter(creation.empty(self.normalized_shape, **factory))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight ones, bias zeros."""
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        return _N.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")
