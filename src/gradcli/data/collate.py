"""Collation (torch/utils/data/_utils/collate.py): how a DataLoader turns a list of samples into a batch.

``default_collate`` follows PyTorch 2.13's dispatch on the first sample, in its order:

* a tensor: ``torch.stack(batch, 0)`` (an engine op: samples that require grad give ``StackBackward0``);
* a numpy array (what ``t.numpy()`` gives a file): each made a tensor sharing its memory, then stacked;
* a float: ``torch.tensor(batch, dtype=torch.float64)``; an int or bool: ``torch.tensor(batch)``;
* a str or bytes: the list itself;
* a dict: a dict of the collated values per key (in the first sample's key order);
* a tuple: a *list* of the collated columns (PyTorch's "backwards compatibility"); a list: a list of them;
  every sample must have the same length (PyTorch's RuntimeError otherwise);
* anything else: PyTorch's TypeError "default_collate: batch must contain tensors, numpy arrays, numbers,
  dicts or lists; found <class '...'>".

``default_convert`` (a DataLoader with ``batch_size=None``) leaves tensors and numbers as they are, turns a
numpy array into a tensor and a tuple into a list, recursively.
"""

from __future__ import annotations

from typing import Any

from ..autograd import dtypes as dt
from ..autograd.ndarray import NDArray
from ..autograd.tensor import Tensor
from ..errors import ArgumentTypeError, error_class

__all__ = ["default_collate", "default_convert"]

_ERR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}")


def _class_repr(obj: Any) -> str:
    """``str(type(obj))`` as PyTorch's message shows it (``<class 'NoneType'>``)."""
    t = type(obj)
    name = getattr(t, "_gradcli_type_name", None) or t.__name__
    module = getattr(t, "__module__", "builtins")
    if module == "builtins":
        return f"<class '{name}'>"
    if module.startswith("gradcli."):
        return f"<class '{name}'>"
    return f"<class '{module}.{name}'>"


def _from_ndarray(a: NDArray) -> Tensor:
    """``torch.as_tensor(array)``: a tensor sharing the array's memory."""
    arr = a._a
    return Tensor._from_data(arr, dt.from_numpy_dtype(arr.dtype))


def _stack(batch: list) -> Tensor:
    from ..ops import shape

    return shape.stack(batch, 0)


def default_collate(batch: Any) -> Any:
    """Collate a list of samples (see the module docstring)."""
    from ..ops import creation

    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack(batch)
    if isinstance(elem, NDArray):
        return default_collate([_from_ndarray(b) for b in batch])
    if isinstance(elem, float):
        return creation.tensor(batch, dtype=dt.float64)
    if isinstance(elem, int):
        return creation.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, dict):
        out = dict(elem)
        for key in elem:
            out[key] = default_collate([d[key] for d in batch])
        return out
    if isinstance(elem, (list, tuple)):
        size = len(elem)
        if not all(len(e) == size for e in batch[1:]):
            raise error_class("runtime")("each element in list of batch should be of equal size")
        columns = list(zip(*batch))  # tuples: a column of strings is returned as this tuple, as PyTorch
        return [default_collate(col) for col in columns]
    raise ArgumentTypeError(_ERR.format(_class_repr(elem)))


def default_convert(data: Any) -> Any:
    """``default_convert``: tensors and numbers as they are, numpy arrays as tensors, tuples as lists."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, NDArray):
        return _from_ndarray(data)
    if isinstance(data, dict):
        out = dict(data)
        for key in data:
            out[key] = default_convert(data[key])
        return out
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data
