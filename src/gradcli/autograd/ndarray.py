"""NDArray: what ``Tensor.numpy()`` gives a file — a numpy array behind the exposure protocol.

It shares memory with the tensor (as PyTorch's ``.numpy()`` does), prints as
numpy prints, and offers a small read-only surface; the numpy object itself
is never handed to user code.
"""

from __future__ import annotations

import numpy as np

__all__ = ["NDArray"]


class NDArray:
    """A numpy array seen through gradcli: shape, dtype, tolist, item, sum/mean/max/min, arithmetic."""

    __slots__ = ("_a",)
    _gradcli_type_name = "numpy.ndarray"  # as Python's messages name it ("'numpy.ndarray' object has no ...")
    _gradcli_public = frozenset({"shape", "dtype", "ndim", "size", "tolist", "item", "sum", "mean", "max", "min",
                                 "T", "reshape", "copy"})

    def __init__(self, a: np.ndarray) -> None:
        self._a = a

    @property
    def shape(self) -> tuple:
        return tuple(self._a.shape)

    @property
    def dtype(self) -> str:
        return str(self._a.dtype)

    @property
    def ndim(self) -> int:
        return self._a.ndim

    @property
    def size(self) -> int:
        return int(self._a.size)

    @property
    def T(self) -> "NDArray":
        return NDArray(self._a.T)

    def tolist(self):
        from . import limits

        limits.python_objects(self._a.size)
        return self._a.tolist()

    def item(self):
        return self._a.item()

    def copy(self) -> "NDArray":
        return NDArray(self._a.copy())

    def reshape(self, *shape) -> "NDArray":
        return NDArray(self._a.reshape(*shape))

    def _wrap(self, v):
        return NDArray(v) if isinstance(v, np.ndarray) else (v.item() if isinstance(v, np.generic) else v)

    def sum(self, axis=None):
        return self._wrap(self._a.sum(axis=axis))

    def mean(self, axis=None):
        return self._wrap(self._a.mean(axis=axis))

    def max(self, axis=None):
        return self._wrap(self._a.max(axis=axis))

    def min(self, axis=None):
        return self._wrap(self._a.min(axis=axis))

    def __len__(self) -> int:
        return len(self._a)

    def __getitem__(self, key):
        return self._wrap(self._a[key])

    def __repr__(self) -> str:
        return repr(self._a)

    def __str__(self) -> str:
        return str(self._a)

    def _op(self, other, fn):
        o = other._a if isinstance(other, NDArray) else other
        if not isinstance(o, (np.ndarray, int, float, bool)):
            return NotImplemented
        return self._wrap(fn(self._a, o))

    def __add__(self, o):
        return self._op(o, np.add)

    __radd__ = __add__

    def __sub__(self, o):
        return self._op(o, np.subtract)

    def __mul__(self, o):
        return self._op(o, np.multiply)

    __rmul__ = __mul__

    def __truediv__(self, o):
        return self._op(o, np.true_divide)
