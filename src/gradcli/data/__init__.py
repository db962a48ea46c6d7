"""torch.utils.data for gradcli: datasets, samplers, collation and a single-process DataLoader.

Above ``ops/`` and below ``api.py`` (DESIGN.md "Where real-code support goes"), PyTorch 2.13's Python code
followed step by step with the engine's public ops (``tensor[i]``, ``torch.stack``, the random stream):

* :mod:`.dataset` -- ``Dataset``, ``IterableDataset``, ``TensorDataset``, ``Subset``, ``ConcatDataset``,
  ``random_split``;
* :mod:`.protocol` -- the operations a DataLoader uses on a dataset (``len``, ``[]``, ``iter``), so a file's
  own ``class D(Dataset)`` plugs in;
* :mod:`.sampler` -- ``SequentialSampler``, ``RandomSampler`` (PyTorch's use of the random stream),
  ``BatchSampler``;
* :mod:`.collate` -- ``default_collate`` / ``default_convert``;
* :mod:`.dataloader` -- ``DataLoader``.
"""

from __future__ import annotations

from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "random_split", "DataLoader",
           "Sampler", "SequentialSampler", "RandomSampler", "BatchSampler", "default_collate", "default_convert"]
