"""Datasets (torch/utils/data/dataset.py): ``Dataset``, ``IterableDataset``, ``TensorDataset``, ``Subset``,
``ConcatDataset`` and ``random_split``, as PyTorch 2.13 defines them.

``Dataset`` and ``IterableDataset`` are the bases a file's ``class D(Dataset)`` derives from (the language
builds those classes); their own methods are PyTorch's: ``Dataset.__getitem__`` raises NotImplementedError,
``ds1 + ds2`` is a ``ConcatDataset``.  ``TensorDataset(*tensors)`` indexes every tensor along its first
dimension (``tensor[index]``, an engine op: a tensor that requires grad gives ``SelectBackward0`` items).
"""

from __future__ import annotations

import bisect
import math
from typing import Any

from ..errors import ArgumentIndexError, ValueErrorKind, error_class, python_errors, warn
from . import protocol

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "random_split"]


class Dataset:
    """``torch.utils.data.Dataset``: a map-style dataset (``len(ds)``, ``ds[i]``); subclasses define
    ``__getitem__`` (the base's raises NotImplementedError, kind ``runtime``) and usually ``__len__``."""
    __module__ = "torch.utils.data.dataset"  # printed as PyTorch's class

    _gradcli_public: frozenset = frozenset()
    _gradcli_subclassable = True  # a file's class D(Dataset) / D(IterableDataset) derives from it (lang/)

    def __getitem__(self, index):
        raise error_class("runtime")("Subclasses of Dataset should implement __getitem__.",
                                     torch_type=NotImplementedError)

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """``torch.utils.data.IterableDataset``: a dataset read by iterating it (subclasses define ``__iter__``);
    a DataLoader over one takes neither shuffle nor a sampler."""
    __module__ = "torch.utils.data.dataset"  # printed as PyTorch's class

    def __add__(self, other):
        raise error_class("unsupported")("ChainDataset (IterableDataset + IterableDataset) is not supported by "
                                         "gradcli")


class TensorDataset(Dataset):
    """``TensorDataset(*tensors)``: item ``i`` is ``tuple(t[i] for t in tensors)``; length ``tensors[0].size(0)``.
    PyTorch's AssertionError ("Size mismatch between tensors", kind ``assertion``) when the first dimensions
    differ."""
    __module__ = "torch.utils.data.dataset"  # printed as PyTorch's class

    _gradcli_public = frozenset({"tensors"})

    @python_errors
    def __init__(self, *tensors: Any) -> None:
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise error_class("assertion")("Size mismatch between tensors")
        self.tensors = tensors

    @python_errors
    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    @python_errors
    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """``Subset(dataset, indices)``: the items of ``dataset`` at ``indices``, in that order."""
    __module__ = "torch.utils.data.dataset"  # printed as PyTorch's class

    _gradcli_public = frozenset({"dataset", "indices"})

    def __init__(self, dataset: Any, indices: Any) -> None:
        self.dataset = dataset
        self.indices = indices

    @python_errors
    def __getitem__(self, idx):
        if isinstance(idx, list):
            return protocol.item(self.dataset, [self.indices[i] for i in idx])
        return protocol.item(self.dataset, self.indices[idx])

    @python_errors
    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """``ConcatDataset(datasets)``: the datasets one after the other (``cumulative_sizes``); PyTorch's
    AssertionError for an empty list or an IterableDataset."""
    __module__ = "torch.utils.data.dataset"  # printed as PyTorch's class

    _gradcli_public = frozenset({"datasets", "cumulative_sizes"})

    @python_errors
    def __init__(self, datasets: Any) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise error_class("assertion")("datasets should not be an empty iterable")
        for d in self.datasets:
            if protocol.is_iterable_dataset(d):
                raise error_class("assertion")("ConcatDataset does not support IterableDataset")
        sizes, total = [], 0
        for d in self.datasets:
            total += protocol.length(d)
            sizes.append(total)
        self.cumulative_sizes = sizes

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    @python_errors
    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueErrorKind("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        i = bisect.bisect_right(self.cumulative_sizes, idx)
        if i >= len(self.datasets):
            raise ArgumentIndexError("list index out of range")
        sample = idx if i == 0 else idx - self.cumulative_sizes[i - 1]
        return protocol.item(self.datasets[i], sample)


@python_errors
def random_split(dataset: Any, lengths: Any, generator: Any = None) -> list:
    """``random_split(dataset, lengths, generator=default_generator)``: Subsets of the given lengths (or
    fractions summing to 1) over ``torch.randperm(len(dataset))``, drawn as PyTorch draws it."""
    from ..autograd import random as _random

    gen = _random.default_generator if generator is None else generator
    lengths = list(lengths)
    n = protocol.length(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueErrorKind(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(math.floor(n * frac))
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, size in enumerate(lengths):
            if size == 0:
                warn("other", f"Length of split at index {i} is 0. This might result in an empty dataset.")
    if sum(lengths) != n:
        raise ValueErrorKind("Sum of input lengths does not equal the length of the input dataset!")
    indices = gen.randperm(sum(lengths)).tolist()
    out, offset = [], 0
    for size in lengths:
        offset += size
        out.append(Subset(dataset, indices[offset - size:offset]))
    return out

