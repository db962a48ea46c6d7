"""dtype objects and PyTorch's type promotion.

A :class:`dtype` prints as ``torch.float32`` and maps to a numpy dtype.  The
promotion rule is PyTorch's ``at::native::result_type`` (c10/core/ScalarType.h,
aten/src/ATen/native/TypeProperties.cpp): operands fall in three priority
groups — tensors with dimensions, zero-dim tensors, Python scalars ("wrapped
numbers") — and a lower group only raises the result's *category*
(bool < integral < floating), never its width within a category.  A Python
float counts as the default dtype, a Python int as int64, a bool as bool.
"""

from __future__ import annotations

import numpy as np
from ..errors import ArgumentTypeError

__all__ = [
    "dtype", "float16", "float32", "float64", "int32", "int64", "int8", "int16", "uint8", "bool_",
    "get_default_dtype", "set_default_dtype", "promote_types", "result_type", "from_numpy_dtype", "by_name",
]


class dtype:
    """A tensor element type (``torch.float32`` ...).

    Attributes: name ('float32'), np (numpy dtype), is_floating_point, itemsize (bytes), rank (promotion order).
    """
    __module__ = "torch"  # printed as PyTorch's class

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "category", "rank")
    _gradcli_public = frozenset({"is_floating_point", "is_signed", "itemsize", "is_complex"})
    _gradcli_type_name = "torch.dtype"  # the C type's name in PyTorch's messages ("... not torch.dtype")

    def __new__(cls, *args, **kwargs):
        # PyTorch's dtypes are a closed set: its C type has no constructor (issue 20: a dtype forged with
        # torch.dtype('evil', 'float32', 2, 6) failed in printing, exit 70, and promoted at rank 99)
        from ..errors import ArgumentTypeError  # PyTorch's TypeError, raised on purpose (lang/errmap.py)

        raise ArgumentTypeError("cannot create 'torch.dtype' instances")

    @classmethod
    def _make(cls, name: str, np_dtype, category: int, rank: int) -> "dtype":
        """One of the module's dtypes below (the only instances there are)."""
        self = object.__new__(cls)
        self._setup(name, np_dtype, category, rank)
        return self

    def _setup(self, name: str, np_dtype, category: int, rank: int) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = category == 2
        self.is_signed = name not in ("bool", "uint8")
        self.itemsize = self.np.itemsize
        self.category = category  # 0 bool, 1 integral, 2 floating
        self.rank = rank

    @property
    def is_complex(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "torch." + self.name

    __str__ = __repr__

    def __reduce__(self):  # dtypes are singletons
        return (by_name, (self.name,))


bool_ = dtype._make("bool", np.bool_, 0, 0)
uint8 = dtype._make("uint8", np.uint8, 1, 1)
int8 = dtype._make("int8", np.int8, 1, 2)
int16 = dtype._make("int16", np.int16, 1, 3)
int32 = dtype._make("int32", np.int32, 1, 4)
int64 = dtype._make("int64", np.int64, 1, 5)
float16 = dtype._make("float16", np.float16, 2, 6)
float32 = dtype._make("float32", np.float32, 2, 7)
float64 = dtype._make("float64", np.float64, 2, 8)

_ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NAME = {d.name: d for d in _ALL}
_BY_NP = {d.np: d for d in _ALL}
_BY_NAME.update({"float": float32, "double": float64, "long": int64, "int": int32, "half": float16})


def by_name(name: str) -> dtype:
    """The dtype called ``name`` ('float32', 'double', ...); KeyError if unknown."""
    return _BY_NAME[name]


def from_numpy_dtype(npd) -> dtype:
    """The gradcli dtype of a numpy dtype (KeyError for unsupported ones)."""
    return _BY_NP[np.dtype(npd)]


_default = [float32]


def get_default_dtype() -> dtype:
    """The default floating dtype (float32 unless set_default_dtype changed it)."""
    return _default[0]


def set_default_dtype(d) -> None:
    """Set the default floating dtype (float16, float32 or float64).

    Raises PyTorch's TypeError: "invalid dtype object: only floating-point types are supported as the
    default type" for anything that is not a dtype (a name too), without "invalid dtype object: " for an
    integer or bool dtype (measured, 2.13)."""
    if not isinstance(d, dtype):
        raise ArgumentTypeError("invalid dtype object: only floating-point types are supported as the default type")
    if d not in (float32, float64, float16):
        raise ArgumentTypeError("only floating-point types are supported as the default type")
    _default[0] = d


def promote_types(a: dtype, b: dtype) -> dtype:
    """PyTorch's promote_types for the real dtypes: the wider of the higher category."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == 1 and {a.name, b.name} == {"uint8", "int8"}:
        return int16
    return a if a.rank > b.rank else b


def _scalar_dtype(v) -> dtype:
    if isinstance(v, bool):
        return bool_
    if isinstance(v, int):
        return int64
    return _default[0]


def _combine(higher, lower):
    # c10 combine_categories: a lower-priority group only lifts the category
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type(*operands) -> dtype:
    """Result dtype of an op over tensors and Python scalars, by PyTorch's rule.

    operands: gradcli Tensors (anything with ``.dtype`` and ``.ndim``) or Python
    bool/int/float.  Raises TypeError for anything else.
    """
    dim = zero = wrapped = None
    for o in operands:
        if isinstance(o, (bool, int, float)):
            d = _scalar_dtype(o)
            wrapped = d if wrapped is None else promote_types(wrapped, d)
        else:
            d = o.dtype
            if o.ndim:
                dim = d if dim is None else promote_types(dim, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
    return _combine(dim, _combine(zero, wrapped))
