"""torch.nn.PairwiseDistance and CosineSimilarity (``torch/nn/modules/distance.py``): the functional forms with
the module's arguments."""

from __future__ import annotations

from ..autograd.tensor import Tensor
from ..ops import loss_composite as _FC
from .module import Module

__all__ = ["PairwiseDistance", "CosineSimilarity"]


class PairwiseDistance(Module):
    """The p-norm of ``x1 - x2 + eps`` over the last dim (NormBackward1); PyTorch stores p as ``norm``."""

    __module__ = "torch.nn.modules.distance"

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return _FC.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """F.cosine_similarity over ``dim`` (default 1) with ``eps`` (default 1e-8)."""

    __module__ = "torch.nn.modules.distance"

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return _FC.cosine_similarity(x1, x2, self.dim, self.eps)
