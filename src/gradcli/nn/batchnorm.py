"""torch.nn.BatchNorm1d and BatchNorm2d (``torch/nn/modules/batchnorm.py``), as PyTorch 2.13's
``_NormBase`` / ``_BatchNorm``: ``weight``/``bias`` (ones / zeros; ``affine=False`` or ``bias=False``
register None), the buffers ``running_mean`` (zeros), ``running_var`` (ones) and ``num_batches_tracked``
(an int64 0) when ``track_running_stats``; ``forward`` checks the input's rank (ValueError), counts the
batch (``num_batches_tracked.add_(1)``; ``momentum=None`` is the cumulative average ``1 /
num_batches_tracked``), uses the batch statistics in training mode (or when there are no running ones) and
calls ``F.batch_norm`` (gradcli.ops.normalization: NativeBatchNormBackward0, the running statistics updated
in place).  ``print``: ``BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True,
track_running_stats=True)``.
"""

from __future__ import annotations

from typing import Any, Optional

from ..autograd import dtypes as dt
from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..ops import creation
from ..ops import normalization as _N
from . import init
from ._errors import nn_error
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["BatchNorm1d", "BatchNorm2d"]

_MOD = "torch.nn.modules.batchnorm"


class _BatchNorm(Module):
    @python_errors
    @tracked_after_init
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        factory = {} if dtype is None else {"dtype": dtype}
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(creation.empty(num_features, **factory))
            if bias:
                self.bias = Parameter(creation.empty(num_features, **factory))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, **factory))
            self.register_buffer("running_var", creation.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=dt.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """running_mean zeros, running_var ones, num_batches_tracked 0 (in place)."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """The running statistics reset; weight ones, bias zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:
                    exponential_average_factor = self.momentum
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)
        use_running = not self.training or self.track_running_stats
        return _N.batch_norm(input, self.running_mean if use_running else None,
                             self.running_var if use_running else None, self.weight, self.bias, bn_training,
                             exponential_average_factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


def _dim(input: Any) -> int:
    if not isinstance(input, Tensor):
        raise nn_error(AttributeError, f"'{type(input).__name__}' object has no attribute 'dim'")
    return input._data.ndim


class BatchNorm1d(_BatchNorm):
    """Batch normalization over (N, C) or (N, C, L) inputs, per channel C."""

    __module__ = _MOD

    def _check_input_dim(self, input: Tensor) -> None:
        d = _dim(input)
        if d != 2 and d != 3:
            raise nn_error(ValueError, f"expected 2D or 3D input (got {d}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) inputs, per channel C."""

    __module__ = _MOD

    def _check_input_dim(self, input: Tensor) -> None:
        d = _dim(input)
        if d != 4:
            raise nn_error(ValueError, f"expected 4D input (got {d}D input)")
