"""torch.utils.data.DataLoader, single process (torch/utils/data/dataloader.py and _utils/fetch.py).

As PyTorch 2.13's with ``num_workers=0``:

* the constructor picks the samplers (``RandomSampler`` with ``shuffle=True``, else ``SequentialSampler``;
  a ``BatchSampler`` when ``batch_size`` is not None) and checks its arguments with PyTorch's messages;
* ``iter(loader)`` makes a ``_SingleProcessDataLoaderIter``, which draws ``_base_seed`` from the generator
  (``torch.empty((), dtype=torch.int64).random_(generator=loader.generator)``) -- on every pass, shuffled or
  not, so the default stream moves by one 64-bit draw, as in PyTorch; the sampler draws its own at the first
  ``next`` (sampler.py);
* each ``next`` takes the next list of indices, reads ``dataset[i]`` for each (an IterableDataset: the next
  items of ``iter(dataset)``) and collates them (collate.py); ``len(loader)`` is the number of batches.

``num_workers > 0`` loads in this process too (the batches are the same for a map-style dataset; an
IterableDataset, which PyTorch would copy into each worker, is refused).  ``pin_memory`` has no device to
pin to and warns as PyTorch does on a CPU.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from ..autograd import random as _random
from ..errors import ValueErrorKind, error_class, python_errors, warn
from . import protocol
from ..autograd.tensor import Tensor
from ..ops._core import record
from .collate import default_collate, default_convert
from .dataset import TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler, _InfiniteConstantSampler

__all__ = ["DataLoader"]

_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class DataLoader:
    """``DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
    collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
    multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
    pin_memory_device="", in_order=True)``.

    dataset: anything with ``len``/``[]`` (map-style) or an ``IterableDataset``.  Iterating gives batches:
    stacked tensors for tensor samples, lists for tuple samples (``for x, y in loader``).  PyTorch's
    ValueError (kind ``runtime``) for contradictory arguments; ``len()`` of a loader over an IterableDataset
    without ``__len__`` is PyTorch's TypeError."""
    __module__ = "torch.utils.data.dataloader"  # printed as PyTorch's class

    _gradcli_public = frozenset({
        "dataset", "batch_size", "drop_last", "sampler", "batch_sampler", "num_workers", "collate_fn",
        "generator", "pin_memory", "timeout", "worker_init_fn", "prefetch_factor", "persistent_workers",
    })
    _gradcli_settable = frozenset(_FROZEN)

    @python_errors
    def __init__(self, dataset: Any, batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Optional[Callable] = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Optional[Callable] = None, multiprocessing_context: Any = None,
                 generator: Any = None, *, prefetch_factor: Optional[int] = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        init = object.__setattr__
        if num_workers < 0:
            raise ValueErrorKind("num_workers option should be non-negative; use num_workers=0 to disable "
                                 "multiprocessing.")
        if timeout < 0:
            raise ValueErrorKind("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueErrorKind("prefetch_factor option could only be specified in multiprocessing.let "
                                 "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueErrorKind("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueErrorKind("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueErrorKind("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={num_workers}")
        iterable = protocol.is_iterable_dataset(dataset)
        if iterable:
            if num_workers > 0:
                raise error_class("unsupported")(
                    "a DataLoader with num_workers > 0 over an IterableDataset is not supported by gradcli",
                    "PyTorch copies the dataset into every worker process; gradcli loads in one process: use "
                    "num_workers=0.")
            if shuffle not in (False, None):
                raise ValueErrorKind("DataLoader with IterableDataset: expected unspecified shuffle option, but "
                                     f"got shuffle={shuffle}")
            if sampler is not None:
                raise ValueErrorKind("DataLoader with IterableDataset: expected unspecified sampler option, but "
                                     f"got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueErrorKind("DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                     f"but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueErrorKind("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueErrorKind("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                     "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueErrorKind("batch_size=None option disables auto-batching and is mutually exclusive with "
                                 "drop_last")
        if sampler is None:
            if iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        for name, value in (("dataset", dataset), ("num_workers", num_workers), ("prefetch_factor", prefetch_factor),
                            ("pin_memory", pin_memory), ("timeout", timeout), ("worker_init_fn", worker_init_fn),
                            ("batch_size", batch_size), ("drop_last", drop_last), ("sampler", sampler),
                            ("batch_sampler", batch_sampler), ("generator", generator),
                            ("persistent_workers", persistent_workers)):
            init(self, name, value)
        init(self, "_iterable", iterable)
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        init(self, "collate_fn", collate_fn)
        init(self, "_initialized", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_initialized", False) and name in _FROZEN:
            raise ValueErrorKind(f"{name} attribute should not be set after {type(self).__name__} is initialized")
        object.__setattr__(self, name, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    @python_errors
    def __iter__(self) -> "_SingleProcessDataLoaderIter":
        return _SingleProcessDataLoaderIter(self)

    @python_errors
    def __len__(self) -> int:
        if self._iterable:
            length = protocol.length(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return protocol.length(self._index_sampler)

    def __repr__(self) -> str:
        return "<torch.utils.data.dataloader.DataLoader object>"


class _SingleProcessDataLoaderIter:
    """What ``iter(loader)`` returns (PyTorch's ``_SingleProcessDataLoaderIter``): an iterator of batches."""

    _gradcli_public: frozenset = frozenset()

    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        if loader.pin_memory:
            warn("other", "'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.")
        self._collate_fn = loader.collate_fn
        self._sampler_iter = protocol.iterate(self._index_sampler)
        gen = loader.generator if loader.generator is not None else _random.default_generator
        self._base_seed = gen.random_int64()
        self._dataset_iter = protocol.iterate(self._dataset) if self._iterable else None
        self._ended = False

    def __iter__(self) -> "_SingleProcessDataLoaderIter":
        return self

    @python_errors
    def __next__(self) -> Any:
        index = next(self._sampler_iter)  # StopIteration ends the loop
        if self._iterable:
            return self._fetch_iterable(index)
        if self._auto_collation:
            rows = self._tensor_rows(index)
            if rows is not None:
                return rows
            data = [protocol.item(self._dataset, i) for i in index]
        else:
            data = protocol.item(self._dataset, index)
        return self._collate_fn(data)

    def _tensor_rows(self, index: Any) -> Optional[list]:
        """The batch that ``default_collate`` makes of a TensorDataset's items, one gather per tensor.

        ``stack([t[i] for i in index])`` and ``t[index]`` hold the same values, dtype and shape, and both are a
        fresh contiguous tensor; without a graph to record (no tensor requires grad, none is an inference
        tensor) nothing else tells them apart, so the per-item views of PyTorch's fetch loop are skipped
        (32 selects and a stack per batch of 32: most of a small training loop's time).  None: take the
        general path (a subclass, another collate_fn, an index that is no int in range, a tensor in a graph)."""
        ds = self._dataset
        if type(ds) is not TensorDataset or self._collate_fn is not default_collate or not index:
            return None
        tensors = ds.tensors
        if not all(isinstance(t, Tensor) and t._data.ndim > 0 and not t._inference and not t.requires_grad
                   for t in tensors):
            return None
        if not all(type(i) is int for i in index):
            return None
        n = tensors[0]._data.shape[0]
        if min(index) < 0 or max(index) >= n:
            return None
        return [record(None, t._data[index], t._dtype, (t,))[0] for t in tensors]

    def _fetch_iterable(self, index: Any) -> Any:
        if self._ended:
            raise StopIteration
        if self._auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self._dataset_iter))
                except StopIteration:
                    self._ended = True
                    break
            if len(data) == 0 or (self._drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self._dataset_iter)
        return self._collate_fn(data)

    def __len__(self) -> int:
        return protocol.length(self._index_sampler)

    def __repr__(self) -> str:
        return "<torch.utils.data.dataloader._SingleProcessDataLoaderIter object>"
