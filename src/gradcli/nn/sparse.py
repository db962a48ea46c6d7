"""torch.nn.Embedding (``torch/nn/modules/sparse.py``): a lookup table of ``num_embeddings`` rows of size
``embedding_dim``.

As PyTorch 2.13: ``padding_idx`` checked (AssertionError "Padding_idx must be within num_embeddings") and
made non-negative; ``weight = Parameter(torch.empty(num, dim))`` initialised by ``init.normal_`` (PyTorch's
draws after ``torch.manual_seed``) and its ``padding_idx`` row zeroed with grad mode off; ``_weight`` /
``_freeze`` and ``from_pretrained(embeddings, freeze=True, ...)``; ``forward`` is ``F.embedding``
(gradcli.ops.embedding: EmbeddingBackward0, ``max_norm`` renormalisation); ``print`` is ``extra_repr``
(``Embedding(10, 3, padding_idx=0)``).
"""

from __future__ import annotations

from typing import Any, Optional

from ..autograd.grad_mode import no_grad
from ..autograd.tensor import Tensor
from ..errors import python_errors
from ..errors import error_class
from ..ops import creation
from ..ops import embedding as _E
from . import init
from ._errors import nn_error
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["Embedding"]


def _assertion(msg: str) -> Exception:
    return error_class("assertion")(msg)


class Embedding(Module):
    """Rows of ``weight`` (num_embeddings, embedding_dim) at integer indices of any shape (F.embedding)."""

    __module__ = "torch.nn.modules.sparse"

    @python_errors
    @tracked_after_init
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Optional[Tensor] = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if isinstance(num_embeddings, int) and not isinstance(num_embeddings, bool):
                padding_idx = _E.check_padding_idx(padding_idx, num_embeddings)
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            factory = {} if dtype is None else {"dtype": dtype}
            self.weight = Parameter(creation.empty((num_embeddings, embedding_dim), **factory),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise _assertion("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self) -> None:
        """``init.normal_(weight)``, then the padding row zeroed."""
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    @python_errors
    def forward(self, input: Tensor) -> Tensor:
        return _E.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                            self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: Optional[int] = None,
                        max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> "Embedding":
        """An Embedding whose weight is ``embeddings`` (2-d), frozen unless ``freeze=False``."""
        if not isinstance(embeddings, Tensor):
            raise nn_error(AttributeError, f"'{type(embeddings).__name__}' object has no attribute 'dim'")
        if embeddings.dim() != 2:
            raise _assertion("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
