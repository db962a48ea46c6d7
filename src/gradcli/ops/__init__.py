"""Operations, one module per family, all listed in :mod:`gradcli.ops.registry`.

Importing this package registers every op and attaches the Tensor methods
and operators from the registry (:func:`install`).
"""

from __future__ import annotations

import importlib

from ..autograd.tensor import Tensor, tensor_public_names
from . import creation, elementwise, inplace, reduction, shape  # noqa: F401  (registration side effects)
from .registry import REGISTRY, tensor_methods

for _mod in ("linalg", "nn", "reduction_more", "misc", "scatter", "storage", "pointwise", "conv", "pooling", "dropout", "embedding", "normalization", "rnn", "bilinear", "loss_composite", "resize", "margin_loss", "ctc_loss"):
    try:
        importlib.import_module(f"{__name__}.{_mod}")
    except ModuleNotFoundError as e:  # a family not written yet
        if e.name != f"{__name__}.{_mod}":
            raise


def install() -> None:
    """Attach every registered method/operator to Tensor and recompute the names a file may read."""
    for name, fn in tensor_methods().items():
        setattr(Tensor, name, fn)
    Tensor.T = property(shape.T)
    Tensor.mT = property(lambda self: shape.transpose(self, -2, -1))
    Tensor._gradcli_public = tensor_public_names() - {"mT"} | {"mT"}


install()

__all__ = ["REGISTRY", "install"]
