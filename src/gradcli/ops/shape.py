"""Shape ops and indexing: views that share storage, and the copies PyTorch makes.

Where PyTorch returns a view (view, reshape of contiguous data, squeeze,
unsqueeze, transpose, t, T, permute, expand, select, slice, split/chunk
outputs, unbind, narrow, diagonal), the result's numpy array is a view of the
input's, it shares the input's version counter, and it remembers its base
and how to replay the view from the base (``_view_fn``, a numpy function) so
an in-place op on it can rebase the base's history (``CopySlices``, see
:mod:`gradcli.ops.inplace`).  Basic indexing is PyTorch's chain of primitive
views (``x[1, 2:4]`` is a select then a slice); tensor/list/bool indices give
one ``IndexBackward0`` copy.
"""

from __future__ import annotations

import numpy as np

from ..autograd import limits as _limits
from ..autograd import forward_ad as _fwad
from ..errors import ArgumentIndexError, ArgumentTypeError, error_class
from . import _core
from ._core import Node, Tensor, check_numel, dt, mode, record, saved
from .reduction import normalize_dims, sum_to_size
from .registry import REGISTRY, register


def _wrap(d: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not isinstance(d, int):
        raise ArgumentTypeError(f"dim must be an int, got {type(d).__name__}")
    if not -n <= d < n:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def propagate_creation(input: Tensor, new):
    """The CreationMeta of a view of ``input`` (PyTorch's propagate_creation_meta): a default view of a view keeps
    its base view's (a view of an unbind output may not be modified in place either), an inference-mode one
    stays that, else the new view's own."""
    prev = input._creation if input._base is not None else None
    if new is None:
        return prev
    return prev if prev == "inference" else new


def _view(input: Tensor, data: np.ndarray, node_cls, replay, inputs=None):
    """Make a view result: shares storage and version counter; remembers base and replay."""
    out, node = record(node_cls, data, input._dtype, inputs or (input,))
    out._version = input._version
    out._view_version = out._version[0]
    out._creation = propagate_creation(input, "inference" if mode.inference else (None if mode.enabled else "no_grad"))
    out._base = input._base if input._base is not None else input
    prev = input._view_fn
    out._view_fn = replay if prev is None else (lambda a, p=prev, r=replay: r(p(a)))
    out._inference = input._inference
    out._zero = input._zero  # a view of a ZeroTensor is one
    if _fwad.state.level is not None:
        _fwad.on_view(out, input, replay)  # the same view of a dual input's tangent
    return out, node


def composite_view(out: Tensor, input: Tensor, base_shape: tuple) -> Tensor:
    """Make ``out`` (a fresh copy) the view PyTorch returns when a composite op's input is an inference tensor.

    Outside inference_mode, PyTorch runs repeat() and roll() without dims on an inference tensor as the
    composite they are (build a new tensor, then ``view`` it to the result's shape), with no autograd kernel to
    hide that last view: the result is a normal tensor whose ``_base`` is the hidden copy of shape
    ``base_shape`` (``_is_view()`` True), so ``detach_()`` on it is the "Can't detach views in-place" error.
    Any other input, or inside inference_mode, ``out`` is returned unchanged (measured on PyTorch 2.13)."""
    if not (input._inference and not mode.inference):
        return out
    base = Tensor._from_data(out._data.reshape(base_shape), out._dtype)
    out._data = base._data.reshape(out._data.shape)
    out._version = base._version
    out._view_version = out._version[0]
    out._creation = None if mode.enabled else "no_grad"
    out._base = base
    shape = out._data.shape
    out._view_fn = lambda a, s=shape: a.reshape(s)
    return out


def _sizes(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    for a in args:
        if not isinstance(a, int) or isinstance(a, bool):
            raise ArgumentTypeError(f"size must be a sequence of ints, got an element of type {type(a).__name__}")
    return tuple(args)


def _infer_shape(shape: tuple, numel: int) -> tuple:
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise error_class("runtime")("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise error_class("runtime")(f"invalid shape dimension {s}")
            known *= s
    if neg:
        if known == 0 and numel == 0:  # (c10's infer_size: -1 could be any size)
            raise error_class("runtime")(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                                         "unspecified dimension size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise error_class("shape")(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise error_class("shape")(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


# --- view / reshape ------------------------------------------------------------------------


class ViewBackward0(Node):
    __slots__ = ("shape",)
    formula = "self: grad.reshape(self.sizes())"

    def apply(self, grads):
        return (grads[0].reshape(self.shape),)


class UnsafeViewBackward0(ViewBackward0):
    __slots__ = ()


def view(input, *shape):
    """A view with a new shape (ViewBackward0); the data must be viewable (contiguous)."""
    if len(shape) == 1 and isinstance(shape[0], dt.dtype):
        raise error_class("unsupported")("view(dtype) is not supported by gradcli")
    shape = _infer_shape(_sizes(shape), input._data.size)
    if not input._data.flags.c_contiguous and input._data.size > 1:
        try:
            data = input._data.view()
            data.shape = shape  # raises if not viewable without a copy
        except AttributeError:
            raise error_class("runtime")(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.") from None
    else:
        data = input._data.reshape(shape)
    out, node = _view(input, data, ViewBackward0, lambda a, s=shape: a.reshape(s))
    if node is not None:
        node.shape = input._data.shape
    return out


class ReshapeAliasBackward0(ViewBackward0):
    __slots__ = ()


def _nocopy_reshape(a: np.ndarray, shape: tuple):
    """``a`` reshaped without copying (a numpy view), or None when the strides do not allow it."""
    try:
        v = a.view()
        v.shape = shape
        return v
    except (AttributeError, ValueError):
        return None


def reshape(input, *shape):
    """Reshape as PyTorch 2.13: a contiguous input gives view (ViewBackward0); a strided one whose strides
    allow it an alias view (ReshapeAliasBackward0); otherwise a contiguous clone (CloneBackward0) then
    ``_unsafe_view`` (UnsafeViewBackward0)."""
    shape = _infer_shape(_sizes(shape), input._data.size)
    if input._data.flags.c_contiguous or input._data.size <= 1:
        return view(input, shape)
    data = _nocopy_reshape(input._data, shape)
    if data is not None:
        out, node = _view(input, data, ReshapeAliasBackward0, lambda a, s=shape: a.reshape(s))
        if node is not None:
            node.shape = input._data.shape
        return out
    c, _ = record(CloneBackward0, np.ascontiguousarray(input._data), input._dtype, (input,))
    out, node = record(UnsafeViewBackward0, c._data.reshape(shape), input._dtype, (c,))
    if node is not None:
        node.shape = input._data.shape
    return out


def flatten(input, start_dim: int = 0, end_dim: int = -1):
    """Flatten dims start_dim..end_dim (a reshape; returns input itself when nothing changes)."""
    nd = input._data.ndim
    if nd == 0:
        return reshape(input, (1,))
    s = _wrap(start_dim, nd)
    e = _wrap(end_dim, nd)
    if s > e:
        raise error_class("runtime")("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shp = input._data.shape
    n = 1
    for d in shp[s:e + 1]:
        n *= d
    return reshape(input, shp[:s] + (n,) + shp[e + 1:])


def unflatten(input, dim, sizes):
    """``Tensor.unflatten(dim, sizes)`` / ``torch.unflatten``: dim ``dim`` split into ``sizes`` (one may be -1), a
    view (ViewBackward0; splitting a dim is always viewable).  PyTorch 2.13's messages: torch/_tensor.py's
    "unflatten: sizes must be non-empty", the parser's TypeErrors, ATen's unflatten_symint size check."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"unflatten(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if isinstance(sizes, (tuple, list)) and not sizes:
        raise error_class("runtime")("unflatten: sizes must be non-empty")
    if not isinstance(sizes, (tuple, list)):
        raise ArgumentTypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, not "
                                f"{type(sizes).__name__}")
    for pos, a in enumerate(sizes):
        if not isinstance(a, int) or isinstance(a, bool):
            raise ArgumentTypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found "
                                    f"element of type {type(a).__name__} at pos {pos}")
    shp = input._data.shape
    d = _wrap(dim, len(shp))
    sizes = tuple(sizes)
    if -1 not in sizes:
        n = 1
        for a in sizes:
            n *= a
        if n != shp[d]:
            raise error_class("runtime")(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
                                         f"{dim} ({shp[d]}) in the input tensor")
    else:
        sizes = _infer_shape(sizes, shp[d])
    return view(input, shp[:d] + sizes + shp[d + 1:])


def view_as(input, other):
    return view(input, other._data.shape)


def reshape_as(input, other):
    return reshape(input, other._data.shape)


# --- squeeze / unsqueeze --------------------------------------------------------------------


class UnsqueezeBackward0(Node):
    __slots__ = ("dim",)
    formula = "self: grad.squeeze(dim)"

    def apply(self, grads):
        return (grads[0].squeeze(self.dim),)


def unsqueeze(input, dim: int):
    """Insert a size-1 dim (UnsqueezeBackward0)."""
    d = _wrap(dim, input._data.ndim + 1)
    data = np.expand_dims(input._data, d)
    out, node = _view(input, data, UnsqueezeBackward0, lambda a, d=d: np.expand_dims(a, d))
    if node is not None:
        node.dim = d
    return out


class SqueezeBackward0(Node):
    __slots__ = ("shape", "axes")
    formula = "self: unsqueeze_to(grad, self.sizes()) (grad.unsqueeze at each squeezed dim)"

    def apply(self, grads):
        g = grads[0]
        axes = getattr(self, "axes", None)
        if axes is None:
            return (g.reshape(self.shape),)
        for a in axes:  # PyTorch's unsqueeze_to: one unsqueeze per removed dim, in increasing order
            g = g.unsqueeze(a)
        return (g,)


class SqueezeBackward1(SqueezeBackward0):
    __slots__ = ()


class SqueezeBackward2(SqueezeBackward0):
    __slots__ = ()


def squeeze(input, dim=None):
    """Remove size-1 dims: all (SqueezeBackward0), one dim (SqueezeBackward1) or a tuple (SqueezeBackward2)."""
    shp = input._data.shape
    if dim is None:
        axes = tuple(i for i, s in enumerate(shp) if s == 1)
        cls = SqueezeBackward0
    elif isinstance(dim, (tuple, list)):
        axes = tuple(d for d in normalize_dims(tuple(dim), len(shp)) if shp and shp[d] == 1)
        cls = SqueezeBackward2
    else:
        d = _wrap(dim, len(shp))
        axes = (d,) if shp and shp[d] == 1 else ()
        cls = SqueezeBackward1
    data = np.squeeze(input._data, axis=axes) if axes else input._data.view()
    out, node = _view(input, data, cls, lambda a, ax=axes: np.squeeze(a, axis=ax) if ax else a.view())
    if node is not None:
        node.shape = shp
        node.axes = tuple(sorted(axes))
    return out


# --- transpose / permute / t / T --------------------------------------------------------------------


class TransposeBackward0(Node):
    __slots__ = ("d0", "d1")
    formula = "self: grad.transpose(dim0, dim1)"

    def apply(self, grads):
        return (grads[0].transpose(self.d0, self.d1),)


def transpose(input, dim0: int, dim1: int):
    """Swap two dims (a view; TransposeBackward0)."""
    nd = input._data.ndim
    a = _wrap(dim0, nd)
    b = _wrap(dim1, nd)
    if nd < 2:
        data = input._data.view()
        out, node = _view(input, data, TransposeBackward0, lambda x: x.view())
    else:
        data = np.swapaxes(input._data, a, b)
        out, node = _view(input, data, TransposeBackward0, lambda x, a=a, b=b: np.swapaxes(x, a, b))
    if node is not None:
        node.d0, node.d1 = a, b
    return out


class TBackward0(Node):
    __slots__ = ()
    formula = "self: grad.t()"

    def apply(self, grads):
        return (grads[0].t(),)


def t(input):
    """Transpose a <= 2-d tensor (TBackward0)."""
    nd = input._data.ndim
    if nd > 2:
        raise error_class("runtime")(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    data = input._data.T
    out, _ = _view(input, data, TBackward0, lambda x: x.T)
    return out


class PermuteBackward0(Node):
    __slots__ = ("dims",)
    formula = "self: grad.permute(inverse of dims)"

    def apply(self, grads):
        inv = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inv[d] = i
        return (grads[0].permute(*inv),)


def permute(input, *dims):
    """Reorder dims (a view; PermuteBackward0)."""
    dims = _sizes(dims)
    nd = input._data.ndim
    if len(dims) != nd:
        raise error_class("runtime")(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap(d, nd) for d in dims)
    if len(set(dims)) != len(dims):
        raise error_class("runtime")("permute(): duplicate dims are not allowed.")
    data = np.transpose(input._data, dims)
    out, node = _view(input, data, PermuteBackward0, lambda x, d=dims: np.transpose(x, d))
    if node is not None:
        node.dims = dims
    return out


def T(input):
    """The ``.T`` property: all dims reversed (PermuteBackward0)."""
    return permute(input, *reversed(range(input._data.ndim)))


# --- expand / repeat ------------------------------------------------------------------------------


class ExpandBackward0(Node):
    __slots__ = ("shape",)
    formula = "self: grad.sum_to_size(self.sizes())"

    def apply(self, grads):
        return (sum_to_size(grads[0], self.shape),)


def _check_numel(shape, n: int = 1, itemsize: int = 8) -> None:
    """limits.check_numel for a result of ``n`` times prod(shape) elements (checked before allocating)."""
    for s in shape:
        if isinstance(s, int) and s > 0:
            n *= s
    check_numel(n, itemsize)


def _broadcast_view(a: np.ndarray, shape: tuple) -> np.ndarray:
    """np.broadcast_to, but writable when ``a`` is: as in PyTorch, writing through an expanded view writes
    the memory it shares (in-place ops that would write one element twice are refused in inplace.py).

    Raises ValueError where np.broadcast_to does.  A C-contiguous ``a`` (every sum/mean backward's gradient)
    is viewed in one ndarray call with the broadcast strides: ~5 us where broadcast_to + as_strided, both
    Python, took ~50 us."""
    if a.flags.c_contiguous and a.size:
        lead = len(shape) - a.ndim
        if lead >= 0:
            strides = [0] * lead
            for i, n in enumerate(a.shape):
                t = shape[lead + i]
                if n == t:
                    strides.append(a.strides[i])
                elif n == 1 and type(t) is int and t >= 0:
                    strides.append(0)
                else:
                    break
            else:
                if all(type(t) is int and t >= 0 for t in shape[:lead]):
                    return np.ndarray(shape, a.dtype, buffer=a, strides=tuple(strides))
    b = np.broadcast_to(a, shape)
    if not a.flags.writeable:
        return b
    return np.lib.stride_tricks.as_strided(a, shape=b.shape, strides=b.strides, writeable=True)


def expand(input, *sizes):
    """Broadcast to a larger shape without copying (-1 keeps a dim) (ExpandBackward0)."""
    sizes = _sizes(sizes)
    shp = input._data.shape
    if len(sizes) < len(shp):
        raise error_class("runtime")(
            f"expand(torch.FloatTensor{{{list(shp)}}}, size={list(sizes)}): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(shp)})")
    lead = len(sizes) - len(shp)
    target = []
    for i, s in enumerate(sizes):
        if i >= lead and s == -1:
            target.append(shp[i - lead])
        else:
            target.append(s)
    target = tuple(target)
    _check_numel(target)  # a view, but every op on it allocates its size
    try:
        data = _broadcast_view(input._data, target)
    except ValueError:
        for i in range(len(shp)):
            if shp[i] != 1 and shp[i] != target[lead + i]:
                raise error_class("shape")(
                    f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                    f"({shp[i]}) at non-singleton dimension {lead + i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(shp)}") from None
        raise
    out, node = _view(input, data, ExpandBackward0, lambda x, s=target: _broadcast_view(x, s))
    if node is not None:
        node.shape = shp
    return out


def expand_as(input, other):
    """expand(input, other.shape)."""
    return expand(input, other._data.shape)


def broadcast_to(input, shape):
    return expand(input, shape)


class RepeatBackward0(Node):
    __slots__ = ("shape", "repeats")
    formula = "self: grad summed over the repeated tiles"

    def apply(self, grads):
        g = grads[0]
        shp = (1,) * (len(self.repeats) - len(self.shape)) + tuple(self.shape)
        inter = []
        for r, s in zip(self.repeats, shp):
            inter += [r, s]
        g = g.reshape(tuple(inter))
        g = g.sum(dim=tuple(range(0, len(inter), 2)))
        return (g.reshape(self.shape),)


def repeat(input, *repeats):
    """Tile the tensor (a copy; RepeatBackward0)."""
    repeats = _sizes(repeats)
    if len(repeats) < input._data.ndim:
        raise error_class("runtime")(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shp = (1,) * (len(repeats) - input._data.ndim) + input._data.shape
    _check_numel(repeats, input._data.size, input._data.itemsize)
    data = np.tile(input._data.reshape(shp), repeats)
    out, node = record(RepeatBackward0, data, input._dtype, (input,))
    if node is not None:
        node.shape = input._data.shape
        node.repeats = repeats
    elif 0 not in repeats:  # (a zero repeat returns the empty result before the view)
        out = composite_view(out, input, data.shape)
    return out


# --- clone / contiguous ---------------------------------------------------------------------------


class CloneBackward0(Node):
    __slots__ = ()
    formula = "self: grad"

    def apply(self, grads):
        return (grads[0],)


def clone(input, *, memory_format=None):
    """A copy with its own storage (CloneBackward0; of an inference tensor: see inplace.inference_copy)."""
    if isinstance(input, Tensor) and input._inference:  # (the import only on this rare path)
        from .inplace import copies_inference, inference_copy

        if copies_inference(input):
            return inference_copy(input, np.array(input._data, copy=True), input._dtype)
    out, _ = record(CloneBackward0, np.array(input._data, copy=True), input._dtype, (input,))
    return out


def contiguous(input, memory_format=None):
    """input itself when already contiguous, else a contiguous copy (CloneBackward0)."""
    if input._data.flags.c_contiguous:
        return input
    out, _ = record(CloneBackward0, np.ascontiguousarray(input._data), input._dtype, (input,))
    return out


# --- select / slice / index --------------------------------------------------------------------------


class SelectBackward0(Node):
    __slots__ = ("shape", "dim", "index")
    formula = "self: zeros(self.sizes()) with grad at index along dim"

    def apply(self, grads):
        key = (slice(None),) * self.dim + (self.index,)
        return (embed(grads[0], self.shape, key, "SelectBackwardBackward0"),)


def select(input, dim: int, index: int):
    """input.select(dim, index): drop dim at position index (a view; SelectBackward0)."""
    shp = input._data.shape
    if not shp:
        raise ArgumentIndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap(dim, len(shp))
    n = shp[d]
    if not -n <= index < n:
        raise ArgumentIndexError(f"index {index} is out of bounds for dimension {d} with size {n}")
    i = index % n
    key = (slice(None),) * d + (i, Ellipsis)  # the Ellipsis keeps a 0-d result a view, not a numpy scalar
    data = input._data[key]
    out, node = _view(input, data, SelectBackward0, lambda a, k=key: a[k])
    if node is not None:
        node.shape, node.dim, node.index = shp, d, i
    return out


class SliceBackward0(Node):
    __slots__ = ("shape", "dim", "sl")
    formula = "self: zeros(self.sizes()) with grad in the slice"

    def apply(self, grads):
        key = (slice(None),) * self.dim + (self.sl,)
        return (embed(grads[0], self.shape, key, "SliceBackwardBackward0"),)


def slice_dim(input, dim: int, start, stop, step):
    """input[..., start:stop:step] along dim (a view; SliceBackward0)."""
    for v in (start, stop, step):
        if v is not None and not isinstance(v, int) and not hasattr(type(v), "__index__"):
            raise ArgumentTypeError("slice indices must be integers or None or have an __index__ method")
    if step is not None and step <= 0:
        raise error_class("runtime")("step must be greater than zero", torch_type=ValueError)
    shp = input._data.shape
    d = _wrap(dim, len(shp))
    sl = slice(*slice(start, stop, step).indices(shp[d]))
    key = (slice(None),) * d + (sl,)
    data = input._data[key]
    out, node = _view(input, data, SliceBackward0, lambda a, k=key: a[k])
    if node is not None:
        node.shape, node.dim, node.sl = shp, d, sl
    return out


def narrow(input, dim: int, start: int, length: int):
    """input.narrow(dim, start, length) (SliceBackward0)."""
    n = input._data.shape[_wrap(dim, input._data.ndim)]
    if not -n <= start <= n:
        raise ArgumentIndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got {start})")
    if start < 0:
        start += n
    if length < 0:
        raise error_class("runtime")("narrow(): length must be non-negative.")
    if start + length > n:
        raise error_class("runtime")(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return slice_dim(input, dim, start, start + length, 1)


class EmbedNode(Node):
    __slots__ = ("key",)
    formula = "grad[key]"

    def apply(self, grads):
        return (grads[0][self.key],)


def embed(g: Tensor, shape: tuple, key, node_name: str = "IndexPutBackward0") -> Tensor:
    """zeros(shape) with ``g`` written at ``key`` (the backward of indexing; differentiable: its own backward
    reads ``grad[key]``)."""
    data = np.zeros(shape, dtype=g._dtype.np)
    if isinstance(key, tuple) and any(isinstance(k, np.ndarray) for k in key):
        np.add.at(data, key, g._data)
    else:
        data[key] = g._data
    cls = _EMBED_CLASSES.get(node_name)
    if cls is None:
        cls = _EMBED_CLASSES[node_name] = type(node_name, (EmbedNode,), {"__slots__": ()})
    out, node = record(cls, data, g._dtype, (g,))
    if node is not None:
        node.key = key
    return out


_EMBED_CLASSES: dict = {}


class IndexBackward0(Node):
    __slots__ = ("shape", "key")
    formula = "self: zeros(self.sizes()).index_put_(indices, grad, accumulate=True)"

    def apply(self, grads):
        for i in range(len(self._saved or ())):
            self._unpack(i)  # integer index tensors are saved: an in-place change of one fails, as in PyTorch
        return (embed(grads[0], self.shape, self.key, "IndexPutBackward0"),)


def _np_index(i, dim_size=None):
    if isinstance(i, Tensor):
        if i._dtype is dt.bool_:
            return i._data
        if i._dtype.is_floating_point:
            raise ArgumentIndexError("tensors used as indices must be long, int, byte or bool tensors")
        return i._data.astype(np.int64)
    if isinstance(i, (list, tuple)):
        return _list_index(i)
    return i


def _list_index(seq) -> np.ndarray:
    """A list (or tuple) used as an index, as PyTorch's indexing_tensor_from_data makes it: torch.tensor's rules
    for the nesting and the kind (creation._infer), then a bool list stays a mask and anything else becomes
    int64, floats truncated toward zero (x[[1.5]] is x[[1]]; an empty list is an empty int64 index).  Raises the
    runtime kind for ragged nesting (PyTorch: ValueError) and when a float overflows int64, the type kind for a
    number where a sequence belongs ("not a sequence")."""
    from .creation import _infer, _to_py

    kind = _infer(seq)
    try:
        arr = np.array(_to_py(seq))
    except ValueError:
        raise error_class("type")("not a sequence") from None
    if kind == 0:
        return arr.astype(np.bool_, copy=False)
    if kind == 2:
        with np.errstate(invalid="ignore"):
            if arr.size and not (np.abs(arr) < 2.0 ** 63).all():
                raise error_class("runtime")("value cannot be converted to type int64 without overflow")
            return np.trunc(arr).astype(np.int64)
    return arr.astype(np.int64, copy=False)


_SEQUENCE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; use "
    "x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], "
    "which will result either in an error or a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:{}.)")


def _sequence_as_tuple(key: list) -> bool:
    """PyTorch's treatSequenceAsTuple (NumPy's old heuristic): a list key shorter than 32 that holds a tensor, a
    sequence or a slice (warning from line 349), or else Ellipsis or None (line 359), is read as a tuple of
    indices, with a deprecation warning; any other list is one index tensor."""
    if len(key) >= 32:
        return False
    for k in key:
        if isinstance(k, (Tensor, list, tuple, str, slice)):
            line = 349
        elif k is None or k is Ellipsis:
            line = 359
        else:
            continue
        from ..errors import warn

        warn("other", _SEQUENCE_WARNING.format(line))
        return True
    return False


def _range_list(r: range) -> list:
    """A range index is a sequence index, as a list of its ints (PyTorch: sequenceToTensor)."""
    from ..autograd import limits

    limits.python_objects(len(r))
    return list(r)


def _normalize_key(key) -> tuple:
    if isinstance(key, range):
        key = _range_list(key)
    if isinstance(key, list) and _sequence_as_tuple(key):
        key = tuple(key)
    if not isinstance(key, tuple):
        key = (key,)
    # a tuple or a range inside the key is a sequence index; a 0-d integer tensor is an integer (TensorIndexing.h
    # handleDimInMultiDimIndexing: applySelect, so x[torch.tensor(1)] is a SelectBackward0 view)
    key = tuple(list(k) if isinstance(k, tuple) else _range_list(k) if isinstance(k, range)
                else int(k._data) if isinstance(k, Tensor) and k._data.ndim == 0 and k._dtype.category == 1
                and k._dtype is not dt.uint8 else k for k in key)
    for k in key:
        if not (k is None or k is Ellipsis or isinstance(k, (int, slice, Tensor, list))) or isinstance(k, float):
            raise ArgumentIndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices"
                f" (got {type(k).__name__})")
    return key


def getitem(input, key):
    """input[key]: basic indices give PyTorch's chain of views (select/slice/unsqueeze); tensor, list and
    bool indices give a copy (IndexBackward0)."""
    if isinstance(key, slice):
        # PyTorch's getitem of one bare slice never skips it (disable_slice_optimization in
        # THPVariable_getitem): x[:] is a SliceBackward0 view, while x[:, :] is an alias
        key = _normalize_key(key)
        return _basic_index(input, key, skip_trivial=False)
    key = _normalize_key(key)
    advanced = any(isinstance(k, (Tensor, list)) or isinstance(k, bool) for k in key)
    if not advanced:
        return _basic_index(input, key)
    np_key = tuple(_np_index(k) for k in key)
    try:
        data = input._data[np_key]
    except IndexError as e:
        msg = str(e)
        raise ArgumentIndexError(msg) from None
    data = np.array(data, copy=True)
    # a normal index tensor (a list becomes one) brings autograd in for an inference input (PyTorch 2.13)
    normal_index = any(isinstance(k, list) or isinstance(k, Tensor) and not k._inference for k in key)
    out, node = record(IndexBackward0, data, input._dtype, (input,), wrapped_number=normal_index)
    if node is not None:
        node.shape = input._data.shape
        # a snapshot: a later in-place change of a mask must not move the gradient (PyTorch keeps the indices)
        node.key = tuple(np.array(k, copy=True) if isinstance(k, np.ndarray) else k for k in np_key)
        node._save(*(saved(k) for k in key if isinstance(k, Tensor)))  # index tensors: version-checked
    return out


def trivial_slice(k: slice, size: int) -> bool:
    """True when PyTorch's applySlice skips the slice and returns the tensor itself: start 0 (or None),
    step 1 (or None) and stop None or >= the dim's size.  The start is compared before wrapping, so
    x[-3:] of a size-3 dim is a real slice (PyTorch 2.13, ATen/TensorIndexing.h applySlice)."""
    vals = []
    for v in (k.start, k.stop, k.step):
        if v is not None and not isinstance(v, int):
            if not hasattr(type(v), "__index__"):
                return False  # a wrong type: slice_dim raises PyTorch's TypeError
            v = v.__index__()  # (a one-element integer tensor: PyTorch unpacks the slice through __index__)
        vals.append(v)
    start, stop, step = vals
    return (start is None or start == 0) and (step is None or step == 1) and (stop is None or stop >= size)


def _basic_index(input, key, skip_trivial: bool = True, alias: bool = True):
    """PyTorch's applySlicing of a key without tensors: ints select, None unsqueezes, slices slice;
    a trivial slice (``trivial_slice``) is skipped unless ``skip_trivial`` is False (one bare slice in
    getitem).  Nothing left: an alias view (getitem), or ``input`` itself when ``alias`` is False (setitem)."""
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    nd = input._data.ndim
    if n_real > nd:
        raise ArgumentIndexError(f"too many indices for tensor of dimension {nd}")
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise ArgumentIndexError("an index can only have a single ellipsis ('...')")
    # expand the ellipsis; PyTorch's message names an index by its place in the key as written (real_dim)
    out_key = []
    places = []
    for i, k in enumerate(key):
        if k is Ellipsis:
            out_key += [slice(None)] * (nd - n_real)
            places += [i] * (nd - n_real)
        else:
            out_key.append(k)
            places.append(i)
    t_ = input
    dim = 0
    for k, place in zip(out_key, places):
        if k is None:
            t_ = unsqueeze(t_, dim)
            dim += 1
        elif isinstance(k, int):
            size = t_._data.shape[dim]
            if not -size <= k < size:
                raise ArgumentIndexError(f"index {k} is out of bounds for dimension {place} with size {size}")
            t_ = select(t_, dim, k)
        else:
            if not (skip_trivial and trivial_slice(k, t_._data.shape[dim])):
                t_ = slice_dim(t_, dim, k.start, k.stop, k.step)
            dim += 1
    if t_ is input and alias:
        # x[:] or x[...]: PyTorch returns an alias (a view) of the same tensor
        t_ = _alias(input)
    return t_


class AliasBackward0(Node):
    __slots__ = ()
    formula = "self: grad"

    def apply(self, grads):
        return (grads[0],)


def _alias(input):
    out, _ = _view(input, input._data.view(), AliasBackward0, lambda a: a.view())
    if out._grad_fn is not None:
        # PyTorch's x[:] is a slice over the whole first dim (SliceBackward0)
        pass
    return out


# --- cat / stack / split / chunk / unbind ------------------------------------------------------------


class CatBackward0(Node):
    __slots__ = ("dim", "sizes")
    formula = "each input: the matching slice of grad along dim"

    def apply(self, grads):
        g = grads[0]
        outs = []
        start = 0
        for s in self.sizes:
            outs.append(slice_dim(g, self.dim, start, start + s, 1) if s is not None else None)
            start += s or 0
        return tuple(outs)


def cat(tensors, dim: int = 0):
    """Concatenate along an existing dim (CatBackward0)."""
    tensors = list(tensors)
    if not tensors:
        raise error_class("runtime")("torch.cat(): expected a non-empty list of Tensors")
    for t_ in tensors:
        if not isinstance(t_, Tensor):
            raise ArgumentTypeError(f"expected Tensor as element in argument 0, but got {type(t_).__name__}")
    nonempty = [t_ for t_ in tensors if not (t_._data.ndim == 1 and t_._data.size == 0)]
    ref = nonempty[0] if nonempty else tensors[0]
    d = _wrap(dim, ref._data.ndim)
    dtype = tensors[0]._dtype
    for t_ in tensors[1:]:
        dtype = dt.promote_types(dtype, t_._dtype)
    for i, t_ in enumerate(nonempty):
        if t_._data.ndim != ref._data.ndim:
            raise error_class("runtime")(
                "Tensors must have same number of dimensions: got "
                f"{ref._data.ndim} and {t_._data.ndim}")
        for k in range(ref._data.ndim):
            if k != d and t_._data.shape[k] != ref._data.shape[k]:
                raise error_class("shape")(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref._data.shape[k]} "
                    f"but got size {t_._data.shape[k]} for tensor number {i} in the list.")
    _check_numel((), sum(t_._data.size for t_ in nonempty), np.dtype(dtype.np).itemsize)
    data = np.concatenate([t_._data.astype(dtype.np, copy=False) for t_ in nonempty], axis=d) if nonempty \
        else np.zeros((0,), dtype.np)
    out, node = record(CatBackward0, data, dtype, tuple(tensors))
    if node is not None:
        node.dim = d
        kept = {id(u) for u in nonempty}  # identity: `in` would compare tensors elementwise
        node.sizes = [t_._data.shape[d] if id(t_) in kept else 0 for t_ in tensors]
    return out


class StackBackward0(Node):
    __slots__ = ("dim", "n")
    formula = "each input: grad.select(dim, i)"

    def apply(self, grads):
        g = grads[0]
        from ..autograd.grad_mode import state

        if not state.enabled:  # no create_graph: plain slices of the gradient, no view bookkeeping
            d = g._data
            pre = (slice(None),) * self.dim
            return tuple(Tensor._from_data(d[pre + (i, Ellipsis)], g._dtype) for i in range(self.n))
        return tuple(select(g, self.dim, i) for i in range(self.n))


def stack(tensors, dim: int = 0):
    """Stack equal-shaped tensors along a new dim (StackBackward0)."""
    tensors = list(tensors)
    if not tensors:
        raise error_class("runtime")("stack expects a non-empty TensorList")
    shp = tensors[0]._data.shape
    for i, t_ in enumerate(tensors):
        if not isinstance(t_, Tensor):
            raise ArgumentTypeError(f"expected Tensor as element {i} in argument 0, but got {type(t_).__name__}")
        if t_._data.shape != shp:
            raise error_class("shape")(
                f"stack expects each tensor to be equal size, but got {list(shp)} at entry 0 and "
                f"{list(t_._data.shape)} at entry {i}")
    d = _wrap(dim, len(shp) + 1)
    dtype = tensors[0]._dtype
    for t_ in tensors[1:]:
        dtype = dt.promote_types(dtype, t_._dtype)
    _check_numel(shp, len(tensors), np.dtype(dtype.np).itemsize)
    data = np.stack([t_._data.astype(dtype.np, copy=False) for t_ in tensors], axis=d)
    out, node = record(StackBackward0, data, dtype, tuple(tensors))
    if node is not None:
        node.dim = d
        node.n = len(tensors)
    return out


class SplitBackward0(Node):
    __slots__ = ("num_outputs", "dim", "sizes", "shape", "dtype")
    formula = "self: cat of the outputs' grads (zeros for outputs without grad)"

    def apply(self, grads):
        from .creation import zeros

        parts = []
        for g, s in zip(grads, self.sizes):
            if g is None:
                shp = list(self.shape)
                shp[self.dim] = s
                g = zeros(tuple(shp), dtype=self.dtype)
            parts.append(g)
        return (cat(parts, self.dim),)


class SplitWithSizesBackward0(SplitBackward0):
    __slots__ = ()


class UnbindBackward0(Node):
    __slots__ = ("num_outputs", "dim", "shape", "dtype")
    formula = "self: stack of the outputs' grads"

    def apply(self, grads):
        from .creation import zeros

        shp = list(self.shape)
        del shp[self.dim]
        parts = [g if g is not None else zeros(tuple(shp), dtype=self.dtype) for g in grads]
        return (stack(parts, self.dim),)


def _multi_view(input, pieces_keys, node_cls, d, sizes=None):
    """Outputs that are views of input sharing one multi-output node (split/chunk/unbind)."""
    outs = []
    node = None
    from ..autograd.grad_mode import state as mode

    if mode.enabled and input.requires_grad and not (input._inference and not mode.inference):
        # (an inference tensor's op outside inference_mode records nothing, as record() decides)
        node = node_cls()
        from ._core import edge

        node.next_functions = (edge(input),)
        node._meta = ((input._data.shape, input._dtype),)
        node.num_outputs = len(pieces_keys)
        node.dim = d
        node.shape = input._data.shape
        node.dtype = input._dtype
        if sizes is not None:
            node.sizes = sizes
    base = input._base if input._base is not None else input
    for i, key in enumerate(pieces_keys):
        o = Tensor._from_data(input._data[key], input._dtype)
        o._inference = input._inference  # a view is an inference tensor only when its base is
        o._zero = input._zero
        o._version = input._version
        o._view_version = o._version[0]
        o._creation = propagate_creation(input, "inference" if mode.inference else ("multi" if mode.enabled else "no_grad"))
        o._base = base
        prev = input._view_fn
        o._view_fn = (lambda a, k=key: a[k]) if prev is None else (lambda a, p=prev, k=key: p(a)[k])
        if node is not None:
            o._grad_fn = node
            o._output_nr = i
            o._requires_grad = True
            if _core.value_sink is not None:
                _core.value_sink(o, node)
        outs.append(o)
    if _fwad.state.level is not None:
        _fwad.on_multi_view(outs, input, pieces_keys)
    return tuple(outs)


def split(input, split_size_or_sections, dim: int = 0):
    """Split into chunks of a size (SplitBackward0) or of given sizes (SplitWithSizesBackward0); views.
    Raises runtime for a 0-d input (ATen's split check, before the dimension is wrapped)."""
    if input._data.ndim == 0:
        raise error_class("runtime")("split expects at least a 1-dimensional tensor")
    d = _wrap(dim, input._data.ndim)
    n = input._data.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(split_size_or_sections)
        if sum(sizes) != n:
            raise error_class("runtime")(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension "
                f"{d}), but got split_sizes={sizes}")
        cls = SplitWithSizesBackward0
    else:
        s = split_size_or_sections
        if s <= 0 and n:
            raise error_class("runtime")(f"split expects split_size be non-negative, but got split_size={s}")
        _limits.python_objects(-(-n // s) if n else 1, "tensors")  # one tensor per piece: counted first
        sizes = [min(s, n - i) for i in range(0, n, s)] if n else [0]
        cls = SplitBackward0
    keys = []
    start = 0
    for s in sizes:
        keys.append((slice(None),) * d + (slice(start, start + s),))
        start += s
    return _multi_view(input, keys, cls, d, sizes)


def chunk(input, chunks: int, dim: int = 0):
    """Split into ``chunks`` nearly equal views (SplitBackward0)."""
    if not isinstance(chunks, int):
        if not hasattr(type(chunks), "__index__"):
            raise ArgumentTypeError(f"chunk(): argument 'chunks' (position 2) must be int, not {type(chunks).__name__}")
        chunks = chunks.__index__()
    if input._data.ndim == 0:
        raise error_class("runtime")("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise error_class("runtime")(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _wrap(dim, input._data.ndim)
    n = input._data.shape[d]
    size = -(-n // chunks) if n else 0
    if size == 0:
        _limits.python_objects(chunks, "tensors")
        return split(input, [0] * chunks if not n else n, d)
    return split(input, size, d)


def unbind(input, dim: int = 0):
    """Views of each slice along dim (UnbindBackward0)."""
    d = _wrap(dim, input._data.ndim)
    if input._data.ndim == 0:  # PyTorch wraps the dim as for one dimension, then finds none
        raise ArgumentIndexError("Dimension specified as 0 but tensor has no dimensions")
    _limits.python_objects(input._data.shape[d], "tensors")  # one tensor per slice (iterating a tensor unbinds it)
    keys = [(slice(None),) * d + (i, Ellipsis) for i in range(input._data.shape[d])]
    return _multi_view(input, keys, UnbindBackward0, d)


# --- flip / roll ---------------------------------------------------------------------------------------


class FlipBackward0(Node):
    __slots__ = ("dims",)
    formula = "self: grad.flip(dims)"

    def apply(self, grads):
        return (flip(grads[0], self.dims),)


def flip(input, dims):
    """Reverse the order along dims (a copy; FlipBackward0)."""
    dims = normalize_dims(dims if isinstance(dims, (list, tuple)) else (dims,), input._data.ndim)
    data = np.flip(input._data, dims).copy()
    out, node = record(FlipBackward0, data, input._dtype, (input,))
    if node is not None:
        node.dims = dims
    return out


def _one_sequence(fn: str, arg: str, value) -> None:
    if not isinstance(value, (list, tuple)):
        raise ArgumentTypeError(f"{fn}(): argument '{arg}' (position 2) must be tuple of ints, not {type(value).__name__}")


def torch_permute(input, dims):
    """torch.permute(input, dims): the dims as one sequence (the method also takes them spread)."""
    _one_sequence("permute", "dims", dims)
    return permute(input, *dims)


def torch_reshape(input, shape):
    """torch.reshape(input, shape): the shape as one sequence (the method also takes it spread)."""
    _one_sequence("reshape", "shape", shape)
    return reshape(input, *shape)


def torch_flip(input, dims):
    """torch.flip(input, dims): the dims as one sequence."""
    _one_sequence("flip", "dims", dims)
    return flip(input, dims)


def flip_method(input, *dims, **kwargs):
    """Tensor.flip(*dims), Tensor.flip(dims) or Tensor.flip(dims=dims)."""
    if kwargs:
        if dims or set(kwargs) != {"dims"}:
            raise ArgumentTypeError(f"flip() got an unexpected keyword argument '{next(k for k in kwargs if k != 'dims')}'"
                            if set(kwargs) - {"dims"} else "flip() got multiple values for argument 'dims'")
        dims = (kwargs["dims"],)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    return flip(input, dims)


register("view", view, "shape", torch=(), nodes=("ViewBackward0",), formula=ViewBackward0.formula,
         sample="view")
register("reshape", reshape, "shape", nodes=("ViewBackward0", "ReshapeAliasBackward0", "UnsafeViewBackward0"),
         formula=ViewBackward0.formula, sample="view")
register("flatten", flatten, "shape", nodes=("ViewBackward0",), formula=ViewBackward0.formula, sample="any")
register("view_as", view_as, "shape", torch=(), nodes=("ViewBackward0",))
register("unflatten", unflatten, "shape", nodes=("ViewBackward0",), formula="self: grad.reshape_symint(self.sym_sizes())")
register("reshape_as", reshape_as, "shape", torch=(), nodes=("ViewBackward0",))
register("unsqueeze", unsqueeze, "shape", nodes=("UnsqueezeBackward0",), formula=UnsqueezeBackward0.formula,
         sample="dim0")
register("squeeze", squeeze, "shape", nodes=("SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2"),
         formula=SqueezeBackward0.formula, sample="any")
register("transpose", transpose, "shape", torch=("transpose", "swapaxes"), methods=("transpose", "swapaxes"),
         nodes=("TransposeBackward0",), formula=TransposeBackward0.formula, sample="transpose")
register("t", t, "shape", nodes=("TBackward0",), formula=TBackward0.formula, sample="matrix")
register("permute", permute, "shape", nodes=("PermuteBackward0",), formula=PermuteBackward0.formula,
         sample="permute")
register("expand", expand, "shape", torch=(), nodes=("ExpandBackward0",), formula=ExpandBackward0.formula,
         sample="expand")
register("expand_as", expand_as, "shape", torch=(), nodes=("ExpandBackward0",), formula=ExpandBackward0.formula)
register("broadcast_to", broadcast_to, "shape", nodes=("ExpandBackward0",), formula=ExpandBackward0.formula)
register("repeat", repeat, "shape", torch=(), nodes=("RepeatBackward0",), formula=RepeatBackward0.formula,
         sample="repeat")
register("clone", clone, "shape", nodes=("CloneBackward0",), formula="self: grad", sample="any")
register("contiguous", contiguous, "shape", torch=(), nodes=("CloneBackward0",), formula="self: grad")
register("select", select, "shape", nodes=("SelectBackward0",), formula=SelectBackward0.formula,
         sample="select")
register("narrow", narrow, "shape", nodes=("SliceBackward0",), formula=SliceBackward0.formula, sample="narrow")
register("getitem", getitem, "shape", torch=(), methods=("__getitem__",),
         nodes=("SelectBackward0", "SliceBackward0", "UnsqueezeBackward0", "IndexBackward0"),
         formula="basic: chain of views; tensor/list/bool: " + IndexBackward0.formula, sample="getitem")
register("cat", cat, "shape", torch=("cat", "concat", "concatenate"), methods=(), nodes=("CatBackward0",),
         formula=CatBackward0.formula, sample="cat")
register("stack", stack, "shape", methods=(), nodes=("StackBackward0",), formula=StackBackward0.formula,
         sample="cat")
register("split", split, "shape", nodes=("SplitBackward0", "SplitWithSizesBackward0"),
         formula=SplitBackward0.formula, sample="split")
register("chunk", chunk, "shape", nodes=("SplitBackward0",), formula=SplitBackward0.formula, sample="split")
register("unbind", unbind, "shape", nodes=("UnbindBackward0",), formula=UnbindBackward0.formula, sample="split")
register("flip", flip_method, "shape", nodes=("FlipBackward0",), formula=FlipBackward0.formula, sample="dim0")
REGISTRY["permute"].extra["torch_fn"] = torch_permute
REGISTRY["reshape"].extra["torch_fn"] = torch_reshape
REGISTRY["flip"].extra["torch_fn"] = torch_flip
_ = saved
