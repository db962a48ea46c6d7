"""Creation ops: tensor, zeros, ones, full, arange, linspace, eye, empty, rand*, *_like; dtype conversion.

Results are leaves.  ``requires_grad=True`` on a factory makes a leaf that
requires grad (only for floating dtypes: ``requires_grad_dtype`` otherwise).
dtype inference of ``torch.tensor`` follows PyTorch: any float -> the default
dtype, ints -> int64, bools -> bool.  Sizes are checked against the element
limit before anything is allocated.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ArgumentTypeError, error_class, warn
from ..autograd.graph import source_position as _pos
from ..autograd.tensor import warn_scalar_conversion
from ..autograd import device as _device
from ._core import Node, Tensor, check_numel, dt, record
from ..autograd.tensor import Size
from .registry import register


def _size(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for a in args:
        if isinstance(a, Tensor) and a._data.ndim == 0 and not a._dtype.is_floating_point:
            a = int(a._data)
        if not isinstance(a, int) or isinstance(a, bool):
            raise ArgumentTypeError(f"size must be a tuple of ints, but got an element of type {type(a).__name__}")
        if a < 0:
            raise error_class("runtime")(f"Trying to create tensor with negative dimension {a}: {list(args)}")
        out.append(a)
    n = 1
    for a in out:
        n *= a
    check_numel(n)
    return tuple(out)


#: Python types PyTorch's argument parser takes as a dtype (THPDtype from a type: torch.zeros(2, dtype=float))
_PY_DTYPES = {float: dt.float64, int: dt.int64, bool: dt.bool_}


def py_dtype(dtype):
    """``dtype`` with a Python ``float``/``int``/``bool`` read as PyTorch reads it (float64, int64, bool)."""
    return _PY_DTYPES.get(dtype, dtype) if isinstance(dtype, type) else dtype


def _dtype(dtype, default=None):
    if dtype is None:
        return default or dt.get_default_dtype()
    dtype = py_dtype(dtype)
    if not isinstance(dtype, dt.dtype):
        raise ArgumentTypeError(f"dtype must be a torch.dtype, not {type(dtype).__name__}")
    return dtype


def _need_bool(fn: str, requires_grad: object) -> None:
    """PyTorch's parser takes only a bool for a factory's ``requires_grad`` (``requires_grad=1`` is its
    TypeError, raised before anything is drawn from the random stream), or None (the default) for every
    factory but ``torch.tensor`` (measured, 2.13)."""
    if type(requires_grad) is not bool and (requires_grad is not None or fn == "tensor"):
        raise ArgumentTypeError(f"{fn}(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")


def _finish(data: np.ndarray, dtype, requires_grad: bool) -> Tensor:
    t = Tensor._from_data(data, dtype)
    t._origin = _pos.loc  # provenance (app/why.py): the line that created this leaf
    if requires_grad:
        t._set_requires_grad(True)  # (requires_grad_ words a dtype error as the method does)
    return t


def _infer(value):
    """(kind, shape) of a nested Python value: kind 0 bool, 1 int, 2 float."""
    kind = 0
    scalars = False  # no scalar at all (torch.tensor([]), [[]]): the default float dtype
    stack = [(value, 0)]
    shapes: dict = {}
    while stack:
        v, depth = stack.pop()
        scalars = scalars or not isinstance(v, (list, tuple))
        if isinstance(v, Tensor):
            if v._data.ndim:
                raise ArgumentTypeError("only one-element tensors can be nested inside torch.tensor([...]) here")
            kind = max(kind, v._dtype.category)
            continue
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            kind = max(kind, 1)
            continue
        if isinstance(v, float):
            kind = 2
            continue
        if isinstance(v, (list, tuple)):
            n = len(v)
            if depth in shapes and shapes[depth] != n:
                raise error_class("runtime")(f"expected sequence of length {shapes[depth]} at dim {depth} (got {n})",
                                  torch_type=ValueError)
            shapes[depth] = n
            # first element first: the expected lengths are those along the first elements, as in PyTorch
            stack.extend((x, depth + 1) for x in reversed(v))
            continue
        raise ArgumentTypeError(f"Could not infer dtype of {type(v).__name__}")
    return kind if scalars else 2


def _to_py(v):
    if isinstance(v, Tensor):
        if v.requires_grad:
            warn_scalar_conversion()  # PyTorch converts each element with float() (python_variable_methods.cpp)
        if v._data.size != 1:
            raise error_class("runtime")("only one element tensors can be converted to Python scalars",
                              torch_type=ValueError)
        return v._data.item()
    if isinstance(v, (list, tuple)):
        return [_to_py(x) for x in v]
    return v


def tensor(data, *, dtype=None, device=None, requires_grad: bool = False, pin_memory=False):
    """torch.tensor: a new leaf holding a copy of ``data`` (number, nested list, or tensor)."""
    _need_bool('tensor', requires_grad)
    _device.check_device(device)
    if isinstance(data, Tensor):
        warn("other", "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).")
        d = _dtype(dtype, data._dtype)
        return _finish(np.array(data._data, dtype=d.np, copy=True), d, requires_grad)
    kind = _infer(data)
    default = (dt.bool_, dt.int64, dt.get_default_dtype())[kind]
    d = _dtype(dtype, default)
    py = _to_py(data)
    try:
        arr = np.array(py, dtype=np.float64 if kind == 2 else None)
    except OverflowError:
        raise error_class("runtime")("Overflow when unpacking long") from None
    except ValueError:  # a mix of numbers and sequences at one level (PyTorch: TypeError 'not a sequence')
        raise ArgumentTypeError("not a sequence: torch.tensor needs a number or a rectangular nested list") from None
    check_numel(arr.size)
    if d.category == 1 and arr.dtype.kind == "f":
        arr = np.trunc(arr)
    return _finish(arr.astype(d.np), d, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """torch.as_tensor: data itself when it is already a tensor of that dtype, else torch.tensor(data)."""
    _device.check_device(device)
    if isinstance(data, Tensor) and (dtype is None or dtype is data._dtype):
        return data
    if isinstance(data, Tensor):
        return data.to(dtype)
    return tensor(data, dtype=dtype)


def _size_arg(name: str, size: tuple, kw: dict) -> tuple:
    """The size of a factory: spread ints, one sequence, or ``size=``; PyTorch requires one (TypeError)."""
    if "size" in kw:
        if size:
            raise ArgumentTypeError(f"{name}() got multiple values for argument 'size'")
        size = (kw.pop("size"),)
    if kw:
        raise ArgumentTypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
    if not size:
        raise ArgumentTypeError(f'{name}() missing 1 required positional arguments: "size"')
    return _size(size)


def _factory(fill, name):
    def fn(*size, dtype=None, device=None, requires_grad: bool = False, out=None, layout=None, **kw):
        _need_bool(name, requires_grad)
        _device.check_device(device)
        shape = _size_arg(name, size, kw)
        d = _dtype(dtype)
        return _finish(fill(shape, d), d, requires_grad)

    return fn


zeros = _factory(lambda s, d: np.zeros(s, d.np), "zeros")
ones = _factory(lambda s, d: np.ones(s, d.np), "ones")
empty = _factory(lambda s, d: np.zeros(s, d.np), "empty")
zeros.__doc__ = "torch.zeros(*size): a leaf of zeros (default dtype)."
ones.__doc__ = "torch.ones(*size): a leaf of ones (default dtype)."
empty.__doc__ = "torch.empty(*size): zeros in gradcli (PyTorch leaves memory uninitialised)."


def _scalar_dtype(v):
    if isinstance(v, bool):
        return dt.bool_
    if isinstance(v, int):
        return dt.int64
    return dt.get_default_dtype()


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False):
    """torch.full(size, fill_value): dtype from the value (bool/int64/default float) unless given."""
    _need_bool('full', requires_grad)
    _device.check_device(device)
    if not isinstance(size, (tuple, list)):  # PyTorch's parser: full(2, 0.0) is not full((2,), 0.0)
        raise ArgumentTypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                                f"{type(size).__name__}")
    shape = _size((tuple(size),))
    if isinstance(fill_value, Tensor):
        if fill_value._data.size != 1:
            raise ArgumentTypeError("full(): argument 'fill_value' (position 2) must be Number, not Tensor")
        fill_value = fill_value._data.item()
    d = _dtype(dtype, _scalar_dtype(fill_value))
    try:
        data = np.full(shape, fill_value, d.np)
    except OverflowError:
        raise error_class("runtime")(f"value cannot be converted to type {d.name} without overflow") from None
    return _finish(data, d, requires_grad)


_ARANGE_BLOCK = 1 << 16


def _complex_bound(v):
    """A complex arange argument: its real part (a float) when the imaginary part is 0, else PyTorch's error
    (its Scalar to double conversion; measured on PyTorch 2.13: arange(0, 2 + 0j) is tensor([0., 1.]))."""
    if isinstance(v, complex):
        if v.imag != 0:
            raise error_class("runtime")("value cannot be converted to type double without overflow")
        return float(v.real)
    return v


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad: bool = False):
    """torch.arange([start,] end[, step]): int64 when all arguments are ints, else the default dtype."""
    _need_bool('arange', requires_grad)
    _device.check_device(device)
    if end is None:
        start, end = 0, start
    vals = [_complex_bound(_to_py(v)) for v in (start, end, step)]
    start, end, step = vals
    if step == 0 or step != step:
        raise error_class("runtime")("step must be nonzero")
    if any(isinstance(v, float) and not math.isfinite(v) for v in (start, end)):
        raise error_class("runtime")(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise error_class("runtime")("upper bound and larger bound inconsistent with step sign")
    all_int = all(isinstance(v, int) for v in vals)
    d = _dtype(dtype, dt.int64 if all_int else dt.get_default_dtype())
    if d is dt.bool_:
        raise error_class("runtime")('"arange_cpu" not implemented for \'Bool\'', torch_type=NotImplementedError)
    n = max(0, math.ceil((end - start) / step))
    check_numel(n)
    if d.is_floating_point:
        # PyTorch computes start + i * step in double, then casts; block by block, so a large range needs no
        # float64 temporaries of its whole size
        data = np.empty(n, dtype=d.np)
        for i in range(0, n, _ARANGE_BLOCK):
            block = np.arange(i, min(n, i + _ARANGE_BLOCK), dtype=np.float64)
            block *= step
            block += start
            data[i:i + _ARANGE_BLOCK] = block
    elif -(1 << 62) < start < (1 << 62) and -(1 << 62) < end < (1 << 62) and -(1 << 62) < step < (1 << 62):
        # the int64 values start + i * step in one pass (numpy's integer arange has the same length, ceil((end -
        # start) / step), and no intermediate can overflow in this range)
        data = np.arange(start, start + n * step, step, dtype=np.int64)[:n].astype(d.np, copy=False)
    else:
        data = (start + np.arange(n, dtype=np.int64) * step).astype(d.np)
    return _finish(data, d, requires_grad)


def _linspace_values(start, end, steps: int, out: np.dtype) -> np.ndarray:
    """linspace's values as PyTorch's CPU kernel computes them (RangeFactoriesKernel.cpp).

    The first half counts up from start and the second half down from end; the step is computed in the
    output's float type (double for an integer output), and each ``start + step * idx`` is one fused
    multiply-add (x86 builds contract it), emulated here in extended precision before the final rounding.
    Checked against PyTorch 2.13 on random float32/float64/int64/int32 ranges of 2-4097 steps."""
    ct = out.type if out.kind == "f" else np.float64
    s, e = np.asarray(start).astype(out).astype(ct), np.asarray(end).astype(out).astype(ct)
    step = (e - s) / ct(steps - 1)
    idx = np.arange(steps, dtype=np.int64)
    ld = np.longdouble
    vals = np.where(idx < steps // 2, ld(s) + ld(step) * idx.astype(ld), ld(e) - ld(step) * (steps - idx - 1).astype(ld))
    return vals.astype(ct)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad: bool = False):
    """torch.linspace: ``steps`` evenly spaced values from start to end (inclusive)."""
    _need_bool('linspace', requires_grad)
    _device.check_device(device)
    if not isinstance(steps, int) or steps < 0:
        raise error_class("runtime")("number of steps must be non-negative")
    check_numel(steps)
    d = _dtype(dtype)
    start, end = _to_py(start), _to_py(end)
    if steps == 1:
        data = np.array([start], dtype=np.float64)
    else:
        data = _linspace_values(start, end, steps, np.dtype(d.np))
    return _finish(data.astype(d.np), d, requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad: bool = False):
    """torch.eye(n[, m]): identity matrix."""
    _need_bool('eye', requires_grad)
    _device.check_device(device)
    m = n if m is None else m
    _size((n, m))
    d = _dtype(dtype)
    return _finish(np.eye(n, m, dtype=d.np), d, requires_grad)


def _like(fill, name):
    def fn(input, *, dtype=None, device=None, requires_grad: bool = False, memory_format=None, layout=None):
        _need_bool(name, requires_grad)
        _device.check_device(device)
        if not isinstance(input, Tensor):
            raise ArgumentTypeError(f"argument 'input' must be Tensor, not {type(input).__name__}")
        d = _dtype(dtype, input._dtype)
        return _finish(fill(input._data.shape, d), d, requires_grad)

    return fn


zeros_like = _like(lambda s, d: np.zeros(s, d.np), "zeros_like")
ones_like = _like(lambda s, d: np.ones(s, d.np), "ones_like")
empty_like = _like(lambda s, d: np.zeros(s, d.np), "empty_like")
zeros_like.__doc__ = "torch.zeros_like(t): zeros with t's shape and dtype."
ones_like.__doc__ = "torch.ones_like(t): ones with t's shape and dtype."


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad: bool = False, memory_format=None):
    """torch.full_like(t, value): t's shape and dtype, filled with value."""
    _need_bool('full_like', requires_grad)
    _device.check_device(device)
    d = _dtype(dtype, input._dtype)
    return _finish(np.full(input._data.shape, _to_py(fill_value), d.np), d, requires_grad)


# --- random ----------------------------------------------------------------------------------------


def _gen(generator):
    from ..autograd import random as _random

    return generator if generator is not None else _random.default_generator


def randn(*size, dtype=None, generator=None, device=None, requires_grad: bool = False, **kw):
    """torch.randn: standard normal samples, bit-exact with PyTorch's CPU stream."""
    _need_bool('randn', requires_grad)
    _device.check_device(device)
    shape = _size_arg("randn", size, kw)
    d = _dtype(dtype)
    if not d.is_floating_point:
        raise error_class("runtime")(f'"normal_kernel_cpu" not implemented for \'{d.name}\'')
    return _finish(_gen(generator).randn(shape, d.name), d, requires_grad)


def rand(*size, dtype=None, generator=None, device=None, requires_grad: bool = False, **kw):
    """torch.rand: uniform samples in [0, 1), bit-exact with PyTorch's CPU stream."""
    _need_bool('rand', requires_grad)
    _device.check_device(device)
    shape = _size_arg("rand", size, kw)
    d = _dtype(dtype)
    return _finish(_gen(generator).rand(shape, d.name), d, requires_grad)


def randint(low, high=None, size=None, *, dtype=None, generator=None, device=None, requires_grad: bool = False):
    """torch.randint([low,] high, size): int64 samples in [low, high)."""
    _need_bool('randint', requires_grad)
    _device.check_device(device)
    if size is None:
        if isinstance(high, (tuple, list)):
            low, high, size = 0, low, high
        else:
            raise ArgumentTypeError("randint() missing required argument 'size'")
    elif high is None:
        low, high = 0, low
    shape = _size((tuple(size),))
    for v in (low, high):
        if isinstance(v, float) or not hasattr(v, "__index__"):
            raise ArgumentTypeError(f"randint() received an invalid combination of arguments - got "
                            f"({type(low).__name__}, {type(high).__name__}, tuple): low and high must be ints")
    if low >= high:
        raise error_class("runtime")(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    d = _dtype(dtype, dt.int64)
    data = _gen(generator).randint(int(low), int(high), shape, d.name)
    return _finish(np.asarray(data).astype(d.np), d, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad: bool = False, layout=None,
             pin_memory=False):
    """torch.randperm(n): a random permutation of 0..n-1 (int64 by default), drawn as PyTorch's CPU randperm
    (autograd/random.py ``Generator.randperm``: n - 1 words of the stream).  TypeError for a non-int n;
    PyTorch's runtime errors for a negative n and for a dtype too small to hold n - 1."""
    _need_bool('randperm', requires_grad)
    if isinstance(n, bool) or not hasattr(n, "__index__") or isinstance(n, Tensor):
        raise ArgumentTypeError(f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    n = int(n)
    if n < 0:
        raise error_class("runtime")(f"Trying to create tensor with negative dimension {n}: [{n}]")
    d = _dtype(dtype, dt.int64)
    if n > 0 and d.category < 2 and d is not dt.int64:
        hi = {"bool": 1, "uint8": 255, "int8": 127, "int16": 32767, "int32": 2 ** 31 - 1}.get(d.name)
        if hi is not None and n - 1 > hi:
            cpp = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t"}
            raise error_class("runtime")(f"value cannot be converted to type {cpp[d.name]} without overflow")
    return _finish(_gen(generator).randperm(n).astype(d.np), d, requires_grad)


def _strided_like(input, dtype) -> "np.ndarray | None":
    """An uninitialised array with input's strides when input is dense, non-overlapping and not contiguous,
    as PyTorch's empty_like (preserve_format) makes it; None when the result is simply contiguous."""
    a = input._data
    if a.flags.c_contiguous or a.ndim < 2 or a.ndim > 3:  # 4-d: PyTorch may pick channels_last; not modelled
        return None
    out = np.empty_like(a, dtype=dtype.np, order="K")
    scale = out.itemsize / a.itemsize
    if tuple(out.strides) != tuple(int(st * scale) for st in a.strides):  # not dense: a contiguous result
        return None
    return out


def randn_like(input, *, dtype=None, generator=None, requires_grad: bool = False):
    """torch.randn_like: randn with input's shape and dtype; a transposed input's layout is kept, and the
    samples are drawn in its memory order (PyTorch's serial normal kernel)."""
    _need_bool('randn_like', requires_grad)
    d = dtype or input._dtype
    out = _strided_like(input, d) if d.is_floating_point else None
    if out is None:
        return randn(input._data.shape, dtype=d, requires_grad=requires_grad)
    _gen(generator).normal_(out)
    return _finish(out, d, requires_grad)


def rand_like(input, *, dtype=None, generator=None, requires_grad: bool = False):
    """torch.rand_like: rand with input's shape and dtype (drawn in the memory order of a transposed input)."""
    _need_bool('rand_like', requires_grad)
    d = dtype or input._dtype
    out = _strided_like(input, d) if d.is_floating_point else None
    if out is None:
        return rand(input._data.shape, dtype=d, requires_grad=requires_grad)
    _gen(generator).uniform_(out)
    return _finish(out, d, requires_grad)


def randint_like(input, low, high=None, *, dtype=None):
    """torch.randint_like(input, [low,] high)."""
    if high is None:
        low, high = 0, low
    d = dtype or input._dtype
    out = _strided_like(input, d)
    flat = randint(low, high, (input._data.size,), dtype=d)
    if out is None:
        return Tensor._from_data(flat._data.reshape(input._data.shape), flat._dtype)
    from ..autograd.random import _assign_in_memory_order

    _assign_in_memory_order(out, flat._data)
    return Tensor._from_data(out, flat._dtype)


def manual_seed(seed):
    """torch.manual_seed(n): seed the default generator."""
    if isinstance(seed, Tensor):
        seed = int(seed)
    if not isinstance(seed, int):
        raise ArgumentTypeError(f"manual_seed expected an int, got {type(seed).__name__}")
    from ..autograd import random as _random

    return _random.manual_seed(seed)




# --- dtype conversion ---------------------------------------------------------------------------


class ToCopyBackward0(Node):
    __slots__ = ("dtype",)
    formula = "self: grad.to(self.dtype)"

    def apply(self, grads):
        return (grads[0].to(self.dtype),)


def to(input, *args, dtype=None, copy: bool = False, device=None, non_blocking=False):
    """Tensor.to(dtype) (ToCopyBackward0); input itself when nothing changes and copy=False.

    PyTorch's three overloads: ``to(device=None, dtype=None, non_blocking, copy)``, ``to(dtype, non_blocking,
    copy)`` and ``to(tensor, non_blocking, copy)``; the last two take no ``dtype=``/``device=`` keyword.
    Raises TypeError for any other combination (as PyTorch's argument parser)."""
    def invalid():
        got = ", ".join([_arg_type(a) for a in args] + [f"{k}={_arg_type(v)}" for k, v in
                                                         (("dtype", dtype), ("device", device)) if v is not None])
        return ArgumentTypeError(f"to() received an invalid combination of arguments - got ({got})")

    rest = args
    if args and isinstance(args[0], type):
        args = (py_dtype(args[0]),) + args[1:]
    dtype = py_dtype(dtype)
    if args and isinstance(args[0], (dt.dtype, Tensor)):
        if dtype is not None or device is not None:
            raise invalid()
        dtype = args[0] if isinstance(args[0], dt.dtype) else args[0]._dtype
        rest = args[1:]
    elif args and (isinstance(args[0], (str, _device.device)) or type(args[0]) is int):  # (an int: a device index)
        if device is not None:
            raise invalid()
        _device.check_device(args[0])  # (a CUDA device: PyTorch's CPU build fails here)
        rest = args[1:]
        if rest and isinstance(rest[0], dt.dtype):
            if dtype is not None:
                raise invalid()
            dtype, rest = rest[0], rest[1:]
    if len(rest) > 2 or not all(isinstance(a, bool) for a in rest):
        raise invalid()
    if len(rest) == 2:
        copy = rest[1]
    if device is not None:
        if not (isinstance(device, (str, _device.device)) or type(device) is int):
            raise invalid()
        _device.check_device(device)
    if dtype is None or (dtype is input._dtype and not copy):
        return input
    if input._inference:  # (the import only on this rare path)
        from .inplace import copies_inference, inference_copy

        if copies_inference(input):
            return inference_copy(input, input._data.astype(dtype.np), dtype)
    out, node = record(ToCopyBackward0, input._data.astype(dtype.np), dtype,
                       (input if dtype.is_floating_point else None,))
    if node is not None:
        node.dtype = input._dtype
    return out


def _arg_type(a) -> str:
    if isinstance(a, dt.dtype):
        return "torch.dtype"
    return "Tensor" if isinstance(a, Tensor) else type(a).__name__


def _conv(d):
    def fn(input, memory_format=None):
        return to(input, d)

    fn.__doc__ = f"Tensor.to({d})"
    return fn


#: dtype name -> PyTorch's legacy type name (``options_to_string``: "torch." + ScalarType + "Tensor")
_TYPE_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor",
               "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor"}


def type_(input, dtype=None, non_blocking=False, **kwargs):
    """Tensor.type(): the type name ('torch.FloatTensor'); Tensor.type(t) converts as ``to`` (input itself
    when nothing changes), t a dtype, a legacy tensor class (``torch.LongTensor``) or its name as a string:
    python_variable_methods.cpp's THPVariable_type (a class is read by its name, ``options_from_string``)."""
    if kwargs:
        bad = next((k for k in kwargs if k != "memory_format"), None)
        if bad is not None:
            raise ArgumentTypeError(f"type() got an unexpected keyword argument '{bad}'")
    if not isinstance(non_blocking, bool):
        raise ArgumentTypeError(f"type(): argument 'non_blocking' must be bool, not {type(non_blocking).__name__}")
    if dtype is None:
        return "torch." + _TYPE_NAMES.get(input._dtype.name, "Tensor")
    if isinstance(dtype, dt.dtype):
        return to(input, dtype)
    if isinstance(dtype, type):
        legacy = getattr(dtype, "_dtype", None)
        if isinstance(legacy, dt.dtype):  # torch.LongTensor ... (api.py's legacy classes)
            return to(input, legacy)
        name = "torch.Tensor" if dtype is Tensor else dtype.__name__
    elif isinstance(dtype, str):
        name = dtype
    else:
        raise ArgumentTypeError("dtype must be a type, str, or dtype object")
    if name == "torch.Tensor":
        return to(input, dt.get_default_dtype())
    if name.startswith("torch.cuda."):
        raise error_class("unsupported")(f"{name} is a CUDA tensor type: gradcli runs on the CPU only")
    for dname, tname in _TYPE_NAMES.items():
        if name == "torch." + tname:
            return to(input, dt.by_name(dname))
    raise error_class("runtime")(f"invalid type: '{name}'", None, torch_type=ValueError)


register("tensor", tensor, "creation", methods=())
register("as_tensor", as_tensor, "creation", methods=())
register("zeros", zeros, "creation", methods=())
register("ones", ones, "creation", methods=())
register("empty", empty, "creation", methods=())
register("full", full, "creation", methods=())
register("arange", arange, "creation", methods=())
register("linspace", linspace, "creation", methods=())
register("eye", eye, "creation", methods=())
register("zeros_like", zeros_like, "creation", methods=())
register("ones_like", ones_like, "creation", methods=())
register("empty_like", empty_like, "creation", methods=())
register("full_like", full_like, "creation", methods=())
register("randn", randn, "random", methods=())
register("rand", rand, "random", methods=())
register("randint", randint, "random", methods=())
register("randperm", randperm, "random", methods=())
register("randn_like", randn_like, "random", methods=())
register("rand_like", rand_like, "random", methods=())
register("randint_like", randint_like, "random", methods=())
register("manual_seed", manual_seed, "random", methods=())
register("to", to, "conversion", torch=(), nodes=("ToCopyBackward0",), formula=ToCopyBackward0.formula,
         sample=None)
for _n, _d in (("float", dt.float32), ("double", dt.float64), ("half", dt.float16), ("long", dt.int64),
               ("int", dt.int32), ("bool", dt.bool_)):
    register(_n, _conv(_d), "conversion", torch=(), nodes=("ToCopyBackward0",), formula=ToCopyBackward0.formula)
register("type", type_, "conversion", torch=())


def legacy_new(name: str, dtype, args: tuple, kwargs: dict) -> Tensor:
    """``torch.FloatTensor(...)`` / ``torch.Tensor(...)`` as PyTorch 2.13 runs them (SPEC §2b).

    A sequence gives its values (of ``dtype``; the default dtype for ``torch.Tensor``); ints give a
    tensor of that size (uninitialised in PyTorch, zeros here); nothing gives an empty tensor; a tensor of
    the same dtype is returned as it is (PyTorch returns an alias; ``torch.Tensor(t)`` of any dtype too).
    Other arguments are PyTorch's TypeError (kind ``type``)."""
    if kwargs:
        raise ArgumentTypeError(f"new() received an invalid combination of arguments - got an unexpected keyword "
                                f"argument '{next(iter(kwargs))}'")
    if len(args) == 1 and isinstance(args[0], Tensor):
        t = args[0]
        if dtype is None or t._dtype is dtype:
            return t
        raise ArgumentTypeError(f"expected {name} of dtype {dtype} (got a tensor of dtype {t._dtype})")
    d = dtype if dtype is not None else dt.get_default_dtype()
    if not args:
        return empty(0, dtype=d)
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
        return tensor(list(args[0]), dtype=d)
    if len(args) == 1 and isinstance(args[0], Size):
        return empty(*args[0], dtype=d)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return empty(*args, dtype=d)
    got = ", ".join(type(a).__name__ for a in args)
    raise ArgumentTypeError(f"new() received an invalid combination of arguments - got ({got})")


# --- devices and the normal distribution (docs/OPS_FREQUENCY.md) ------------------------------------------------


def cpu(self, memory_format=None):
    """Tensor.cpu(): the tensor itself (it is on the CPU already, as PyTorch returns it)."""
    return self


def cuda(self, device=None, non_blocking=False, memory_format=None):
    """Tensor.cuda(): PyTorch's CPU build fails (AssertionError "Torch not compiled with CUDA enabled")."""
    _device.check_device("cuda")


class NormalBackward1(Node):
    __slots__ = ()
    formula = "mean: zeros(mean.sizes())"

    def apply(self, grads):
        return (zeros_like(grads[0]),)


class NormalBackward2(NormalBackward1):
    __slots__ = ()
    formula = "std: zeros(std.sizes())"


class NormalBackward3(Node):
    __slots__ = ()
    formula = "mean: zeros(mean.sizes()); std: zeros(std.sizes())"

    def apply(self, grads):
        z = zeros_like(grads[0])
        return (z if self._needs[0] else None, z if self._needs[1] else None)


def _normal_invalid(args: tuple) -> Exception:
    got = ", ".join(_arg_type(a) for a in args)
    return ArgumentTypeError(
        f"normal() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
        " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
        " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
        " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False)\n")


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad: bool = False,
           out=None):
    """torch.normal: samples of N(mean, std), PyTorch's CPU stream.

    ``normal(float, float, size)`` is ``empty(size).normal_(mean, std)``; with a tensor mean and/or std the
    samples are ``normal_(0, 1)`` (``normal_(0, std)`` for a number std) then ``.mul_(std)`` and ``.add_(mean)``
    as ATen does, over the broadcast shape, recorded with zero gradients (NormalBackward1 tensor mean, 2
    tensor std, 3 both).  Raises TypeError for another combination, runtime for std < 0."""
    _need_bool('normal', requires_grad)
    _device.check_device(device)
    if out is not None:
        raise error_class("unsupported")("normal(out=...) is not supported by gradcli")
    gen = _gen(generator)
    tm, ts = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not tm and not ts:
        if size is None or not isinstance(mean, (int, float)) or not isinstance(std, (int, float)):
            raise _normal_invalid((mean, std) + (() if size is None else (size,)))
        d = _dtype(dtype)
        data = np.empty(_size((tuple(size) if isinstance(size, (list, tuple)) else size,)), dtype=d.np)
        gen.normal_(data, mean, std)
        return _finish(data, d, requires_grad)
    if size is not None or dtype is not None:
        raise _normal_invalid((mean, std, size))
    if tm and ts:
        shape = tuple(np.broadcast_shapes(mean._data.shape, std._data.shape))
        rdt = mean._dtype
    else:
        shape = (mean if tm else std)._data.shape
        rdt = (mean if tm else std)._dtype
    if ts and float(np.min(std._data, initial=0.0)) < 0.0:
        raise error_class("runtime")(f"normal expects all elements of std >= 0.0")
    data = np.empty(shape, dtype=rdt.np)
    if ts:
        gen.normal_(data, 0.0, 1.0)
        data = np.multiply(data, std._data, dtype=rdt.np)
    else:
        gen.normal_(data, 0.0, float(std))
    data = np.add(data, mean._data if tm else mean, dtype=rdt.np)
    if tm and ts:
        res, _ = record(NormalBackward3, data, rdt, (mean, std))
    elif tm:
        res, _ = record(NormalBackward1, data, rdt, (mean,))
    else:
        res, _ = record(NormalBackward2, data, rdt, (std,))
    return res


register("cpu", cpu, "conversion", torch=())
register("cuda", cuda, "conversion", torch=())
register("normal", normal, "random", methods=(), nodes=("NormalBackward1", "NormalBackward2", "NormalBackward3"),
         formula="mean, std: zeros")
