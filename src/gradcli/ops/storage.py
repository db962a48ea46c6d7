"""Storage-level Tensor methods: ``untyped_storage()``, ``data_ptr()``, ``storage_offset()``, ``set_()``.

A tensor's storage is the numpy buffer its data lives in (the root of its ``.base`` chain): views and
``detach()`` results share it, as in PyTorch.  ``data_ptr()`` values are stable per run but synthetic (a
fake base address per buffer plus the byte offset): equal exactly when PyTorch's would be equal, with no real
memory address exposed to the file.

``set_(source)`` makes the tensor use ``source``'s storage, shape and strides (``set_()`` an empty one,
``set_(storage, offset, size, stride)`` a strided window of an UntypedStorage), bumps its version, and with
grad mode on refuses a leaf that requires grad (leaf_inplace) and records PyTorch's NotImplemented node
("derivative for set_ is not implemented" at backward).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..autograd.graph import accumulate_grad_node
from ..errors import ArgumentTypeError, error_class
from ._core import Tensor, mode
from .registry import register

__all__ = ["UntypedStorage", "untyped_storage", "data_ptr", "storage_offset", "set_"]

_FAKE_BASE = 0x7F0000000000
_addresses: dict = {}  # id(root array) -> (weakref(root), fake address)
_next = [0]  # buffers numbered in order of first use (never reused: an id can be)


def _root(a: np.ndarray) -> np.ndarray:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _address(a: np.ndarray) -> int:
    """The synthetic data_ptr of array ``a``'s first element."""
    root = _root(a)
    entry = _addresses.get(id(root))
    if entry is None or entry[0]() is not root:
        if len(_addresses) > 100_000:
            for k in [k for k, (ref, _) in _addresses.items() if ref() is None]:
                del _addresses[k]
        _next[0] += 1
        entry = (weakref.ref(root), _FAKE_BASE + _next[0] * (1 << 24))
        _addresses[id(root)] = entry
    offset = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return entry[1] + offset


def _bytes(root: np.ndarray) -> np.ndarray:
    """The root buffer as bytes (shared when it is one contiguous block)."""
    if root.flags.c_contiguous:
        return root.reshape(-1).view(np.uint8)
    return np.frombuffer(root.tobytes(), dtype=np.uint8)


class UntypedStorage:
    """torch.UntypedStorage of a tensor (``Tensor.untyped_storage()``): the bytes its data lives in.

    ``tolist()`` (the byte values), ``nbytes()``, ``size()``/``len()``, ``storage[i]`` (a byte), ``data_ptr()``,
    ``element_size()`` (1), ``device``; prints as PyTorch does.
    """

    __slots__ = ("_root",)
    _gradcli_public = frozenset({"tolist", "nbytes", "size", "data_ptr", "element_size", "device", "cpu"})
    _gradcli_type_name = "torch.storage.UntypedStorage"

    def __init__(self, root: np.ndarray) -> None:
        self._root = root

    def tolist(self) -> list:
        """The storage's bytes as a list of ints 0..255."""
        from ..autograd import limits

        limits.python_objects(self._root.nbytes)
        return _bytes(self._root).tolist()

    def nbytes(self) -> int:
        return int(self._root.nbytes)

    def size(self) -> int:
        return int(self._root.nbytes)

    def __len__(self) -> int:
        return int(self._root.nbytes)

    def __getitem__(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, int):
            raise ArgumentTypeError("can't index a torch.UntypedStorage with " + type(i).__name__)
        n = self._root.nbytes
        if not -n <= i < n:
            raise error_class("index")(f"index {i} out of range for storage of size {n}")
        return int(_bytes(self._root)[i])

    def data_ptr(self) -> int:
        return _address(self._root)

    def element_size(self) -> int:
        return 1

    @property
    def device(self):
        from ..autograd.device import CPU

        return CPU

    def cpu(self) -> "UntypedStorage":
        return self

    def __repr__(self) -> str:
        from ..autograd import limits

        limits.python_objects(self._root.nbytes)
        body = "".join(f" {b}\n" for b in _bytes(self._root).tolist())
        return f"{body}[torch.storage.UntypedStorage(device=cpu) of size {self._root.nbytes}]"

    __str__ = __repr__


def untyped_storage(self) -> UntypedStorage:
    """Tensor.untyped_storage(): the storage shared with the tensor's views and detach()es."""
    return UntypedStorage(_root(self._data))


def data_ptr(self) -> int:
    """Tensor.data_ptr(): the (synthetic) address of the first element: equal for tensors that start at the same
    byte of the same storage."""
    return _address(self._data)


def storage_offset(self) -> int:
    """Tensor.storage_offset(): elements from the storage's start to the first element."""
    root = _root(self._data)
    return (self._data.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // self._data.itemsize


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def set_(self, source=None, storage_offset: int = 0, size=None, stride=None):
    """Tensor.set_(source) / set_() / set_(storage, storage_offset, size, stride): the tensor takes source's
    storage, shape and strides (shared, as in PyTorch).  Raises leaf_inplace for a leaf that requires grad with
    grad mode on, runtime for a source of another dtype; records the NotImplemented node (edges to self and
    source) when self or source requires grad."""
    from .inplace import check_inplace

    if source is None:
        new = np.empty((0,), dtype=self._dtype.np)
    elif isinstance(source, Tensor):
        if source._dtype is not self._dtype:
            raise error_class("runtime")(f"Could not set tensor of type {_C_NAMES.get(source._dtype.name)} to a "
                                         f"tensor of type {_C_NAMES.get(self._dtype.name)}")
        new = source._data
    elif isinstance(source, UntypedStorage):
        buf = _bytes(source._root)
        isz = self._dtype.itemsize
        shape = tuple(size) if size is not None else (buf.size // isz - storage_offset,)
        if stride is None:
            st, acc = [], 1
            for n in reversed(shape):
                st.append(acc)
                acc *= n
            stride = tuple(reversed(st))
        need = storage_offset + sum((n - 1) * s for n, s in zip(shape, stride)) + 1 if all(shape) else 0
        if need * isz > buf.size:
            raise error_class("runtime")(
                f"setStorage: sizes {list(shape)}, strides {list(stride)}, storage offset {storage_offset}, and "
                f"itemsize {isz} requiring a storage size of {need * isz} are out of bounds for storage of size "
                f"{buf.size}")
        typed = buf[: buf.size - buf.size % isz].view(self._dtype.np)
        new = np.lib.stride_tricks.as_strided(typed[storage_offset:], shape, tuple(s * isz for s in stride))
    else:
        raise ArgumentTypeError(f"set_() received an invalid combination of arguments - got "
                                f"({getattr(type(source), '_gradcli_type_name', type(source).__name__)})")
    if mode.enabled:
        check_inplace(self)
    from ..autograd import forward_ad as _fwad

    if _fwad.state.level is not None and any(
            isinstance(t, Tensor) and _fwad.tangent_of(t) is not None for t in (self, source)):
        raise error_class("runtime")(
            "Trying to use forward AD with set_ that does not support it because it has not been implemented yet.\n"
            "Please file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-"
            "request.yml so that we can prioritize its implementation.", torch_type=NotImplementedError)
    self._data = new
    self._version[0] += 1
    src_t = source if isinstance(source, Tensor) else None
    if mode.enabled and (self.requires_grad or (src_t is not None and src_t.requires_grad)):
        from .elementwise import NotImplemented_

        node = NotImplemented_()
        node.op = "set_"
        node._seq = float("inf")
        edges, meta = [], []
        for t in (self, src_t):
            if t is not None and t.requires_grad:
                fn = t._grad_fn
                edges.append((fn, t._output_nr) if fn is not None else (accumulate_grad_node(t), 0))
                meta.append((t._data.shape, t._dtype))
            else:
                edges.append((None, 0))
                meta.append(None)
        node.next_functions = tuple(edges)
        node._meta = tuple(meta)
        node._needs = tuple(e[0] is not None for e in edges)
        self._grad_fn = node
        self._output_nr = 0
        self._requires_grad = True
    return self


def is_set_to(self, tensor) -> bool:
    """Tensor.is_set_to(t): the same storage, offset, shape and strides."""
    if not isinstance(tensor, Tensor):
        raise ArgumentTypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not {type(tensor).__name__}")
    a, b = self._data, tensor._data
    return (_address(a) == _address(b) and a.shape == b.shape and a.strides == b.strides)


register("untyped_storage", untyped_storage, "conversion", torch=())
register("data_ptr", data_ptr, "conversion", torch=())
register("storage_offset", storage_offset, "conversion", torch=())
register("set_", set_, "inplace", torch=(), nodes=("NotImplemented",), formula="not implemented (PyTorch: set_)")
register("is_set_to", is_set_to, "conversion", torch=())
