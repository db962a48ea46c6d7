"""Samplers (torch/utils/data/sampler.py): the order in which a DataLoader reads a map-style dataset.

``RandomSampler`` consumes the random stream exactly as PyTorch 2.13's: at the start of each pass (the first
``next``, not ``iter``), without a generator it draws a seed with ``torch.empty((), dtype=torch.int64)
.random_()`` from the default generator, seeds a fresh ``torch.Generator`` with it and takes
``torch.randperm(n, generator=that)`` -- so after ``torch.manual_seed(s)`` the batches are PyTorch's, and so
is every random number drawn afterwards.  With ``replacement=True`` it draws ``randint(0, n, (32,))`` blocks.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..autograd import random as _random
from ..errors import ArgumentTypeError, ValueErrorKind, python_errors
from . import protocol

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler"]


class Sampler:
    """``torch.utils.data.Sampler``: the base of the samplers (iterables of indices)."""
    __module__ = "torch.utils.data.sampler"  # printed as PyTorch's class

    _gradcli_public: frozenset = frozenset()

    def __init__(self, data_source: Any = None) -> None:
        pass


class SequentialSampler(Sampler):
    """``SequentialSampler(data_source)``: 0, 1, ..., len(data_source) - 1."""
    __module__ = "torch.utils.data.sampler"  # printed as PyTorch's class

    _gradcli_public = frozenset({"data_source"})

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(protocol.length(self.data_source)))

    def __len__(self) -> int:
        return protocol.length(self.data_source)


class RandomSampler(Sampler):
    """``RandomSampler(data_source, replacement=False, num_samples=None, generator=None)``: a random
    permutation per pass (see the module docstring); PyTorch's TypeError/ValueError for a non-bool
    replacement or a non-positive num_samples."""
    __module__ = "torch.utils.data.sampler"  # printed as PyTorch's class

    _gradcli_public = frozenset({"data_source", "replacement", "num_samples", "generator"})

    @python_errors
    def __init__(self, data_source: Any, replacement: bool = False, num_samples: Any = None,
                 generator: Any = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise ArgumentTypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        n = self.num_samples
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise ValueErrorKind(f"num_samples should be a positive integer value, but got num_samples={n}")

    @property
    def num_samples(self) -> int:
        if self._num_samples is None:
            return protocol.length(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = protocol.length(self.data_source)
        if self.generator is None:
            generator = _random.Generator(_random.default_generator.random_int64())
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from generator.randint(0, n, (32,)).tolist()
            yield from generator.randint(0, n, (self.num_samples % 32,)).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from generator.randperm(n).tolist()
            yield from generator.randperm(n).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """``BatchSampler(sampler, batch_size, drop_last)``: lists of ``batch_size`` indices (the last one shorter
    unless ``drop_last``); PyTorch's ValueError for a batch_size that is not a positive int or a non-bool
    drop_last."""
    __module__ = "torch.utils.data.sampler"  # printed as PyTorch's class

    _gradcli_public = frozenset({"sampler", "batch_size", "drop_last"})

    def __init__(self, sampler: Any, batch_size: Any, drop_last: Any) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueErrorKind(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueErrorKind(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list]:
        it = protocol.iterate(self.sampler)
        size = self.batch_size
        batch: list = []
        for idx in it:
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = protocol.length(self.sampler)
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size


class _InfiniteConstantSampler(Sampler):
    """The sampler of an IterableDataset: None, forever (PyTorch's _InfiniteConstantSampler)."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None
