"""The Tensor: numpy data plus PyTorch's autograd state.

A Tensor holds ``_data`` (a numpy array, possibly a view of another tensor's
array), ``_dtype`` (a gradcli dtype), ``_requires_grad``, ``_grad_fn`` (the
Node that made it, None for leaves), ``_grad`` and a version counter
``_version`` (a one-element list shared with every view of the same storage,
and with ``detach()`` results, as PyTorch shares its VariableVersion).

Operations are not written here: the op modules of :mod:`gradcli.ops` attach
the methods and operators (``Tensor.mul``, ``__mul__`` ...) from the registry,
so each op lives in one place.  This module keeps what is tensor state:
flags, ``.grad`` access rules, ``retain_grad``, ``requires_grad_``,
``detach``, hooks, conversions and printing.
"""

from __future__ import annotations

import weakref
from typing import Any, Optional

import numpy as np

from .. import host as _host
from ..errors import (TORCH_DTYPE_NAMES, ArgumentIndexError, ArgumentTypeError, GradcliError, error_class,
                      torch_node_name, torch_text, warn)
from . import dtypes as _dt
from .grad_mode import state as _mode
from . import limits as _limits
from .graph import RemovableHandle, accumulate_grad_node
from .graph import source_position as _pos
from .forward_ad import state as _fwd

__all__ = ["Tensor", "Size"]

_host.check_numpy()  # numpy runs the pinned, host-independent loops (a HostWarning when it was loaded first)


class Size(tuple):
    """torch.Size: a tuple of ints that prints as ``torch.Size([2, 3])``."""
    __module__ = "torch"  # printed as PyTorch's class

    _gradcli_public = frozenset({"numel", "index", "count"})

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        if not isinstance(self, Size):  # torch.Size.numel(['a', 5 * 10**9]) multiplied a 5 GB string
            from ..errors import ArgumentTypeError

            raise ArgumentTypeError(f"descriptor 'numel' for 'torch.Size' objects doesn't apply to a "
                                    f"'{type(self).__name__}' object")
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        try:
            r = tuple.__getitem__(self, i)
        except TypeError as e:  # torch.Size is a tuple: x.shape[1.5] and x.shape[9] are the tuple's errors
            from ..errors import ArgumentTypeError

            raise ArgumentTypeError(str(e)) from None
        except IndexError as e:
            from ..errors import ArgumentIndexError

            raise ArgumentIndexError(str(e)) from None
        return Size(r) if isinstance(i, slice) else r


_NON_LEAF_GRAD_MSG = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor."
)


from . import zerotensor as _zt
from . import batching as _batching

class Tensor:
    """A multi-dimensional array with autograd state (torch.Tensor).

    Shapes and dtypes follow numpy/PyTorch; data is a numpy array of the
    dtype's numpy type.  Flags follow PyTorch exactly: ``is_leaf`` is
    ``grad_fn is None``; ``requires_grad`` is True for non-leaves.
    """
    __module__ = "torch"  # printed as PyTorch's class

    __slots__ = ("_data", "_dtype", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_version",
                 "_base", "_view_fn", "_retains_grad", "_hooks", "_acc", "_inference", "_post_acc_hooks",
                 "_origin", "_nograd", "_view_version", "_creation", "_zero", "_fw", "_user", "__weakref__")
    # provenance for the explainers (app/why.py), never set on the grad-recording path; unset slots read as
    # absent: _origin = (line, col) where a tensor that records no history was made (creation op, or an op
    # none of whose inputs requires grad), or (how, loc, weakref-to-source|None) for "detach" / "detach_" /
    # "data" / "requires_grad_false"; _nograd = (line, col) of an op run while grad mode was off
    _gradcli_settable = frozenset({"grad", "requires_grad", "data", "volatile"})
    _gradcli_delattr_names = frozenset({"grad"})  # ``del x.grad`` (lang/access.py del_attr)
    # any other name a file sets (``x.name = 'x'``, or the typo ``x.require_grad = True``) is a plain attribute
    # of that tensor, as on PyTorch's Tensor (a Python class with a __dict__): kept in ``_user``, a dict made
    # on the first such write (lang/access.py); the Tensor API's own names stay as they are
    _gradcli_user_attrs = True

    # --- construction ----------------------------------------------------------------
    @classmethod
    def _from_data(cls, data: np.ndarray, dtype: _dt.dtype) -> "Tensor":
        t = object.__new__(cls)
        t._data = data
        t._dtype = dtype
        t._requires_grad = False
        t._grad_fn = None
        t._output_nr = 0
        t._grad = None
        t._version = [0]
        t._base = None
        t._view_fn = None
        t._retains_grad = False
        t._hooks = None
        t._acc = None
        t._inference = _mode.inference
        t._post_acc_hooks = None
        t._view_version = None  # a view: the version at which its grad_fn was last set (None: not tracked)
        t._creation = None  # a view made in "no_grad"/"inference" mode, by a "multi"-output op, or a "custom"
        # Function's output (PyTorch's CreationMeta)
        t._zero = False  # PyTorch's immutable ZeroTensor (autograd/zerotensor.py): only ever a gradient
        return t

    def __new__(cls, *args, **kwargs) -> "Tensor":
        """``torch.Tensor(...)``: PyTorch's legacy constructor (ops/creation.py legacy_new, SPEC §2b)."""
        from ..ops.creation import legacy_new

        return legacy_new("Tensor", None if len(args) == 1 and isinstance(args[0], Tensor) else
                          _dt.get_default_dtype(), args, kwargs)

    def __init__(self, *args, **kwargs) -> None:  # built by __new__ (or _from_data)
        pass

    # --- flags -------------------------------------------------------------------------
    @property
    def dtype(self) -> _dt.dtype:
        return self._dtype

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad_fn(self):
        if self._base is None:
            return self._grad_fn
        return self._view_grad_fn()

    def _view_grad_fn(self):
        """A view's grad_fn, regenerated when its base or another view of it was modified in place since it
        was set (PyTorch's VariableHooks::grad_fn): AsStridedBackward0 on the base's current history.  A view
        made in no_grad/inference mode or by a multi-output op cannot be regenerated: runtime error."""
        fn = self._grad_fn
        base = self._base
        if fn is None and not base._requires_grad:
            return None
        if self._view_version is None or self._view_version == self._version[0]:
            return fn
        if self._creation is not None:
            raise error_class("runtime")(view_rebase_message(self, indirect=True),
                                         torch_message=view_rebase_message(self, indirect=True, torch_names=True))
        from ..ops.inplace import as_strided_node

        self._grad_fn = as_strided_node(self)
        self._output_nr = 0
        self._requires_grad = True
        self._view_version = self._version[0]
        if self._retains_grad:
            self._attach_retain()
        return self._grad_fn

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def requires_grad(self) -> bool:
        # a view also requires grad when its base does (even one made in no_grad mode, which has no grad_fn)
        # (a view of an inference tensor is an inference tensor without autograd: it never inherits)
        return self._requires_grad or (self._base is not None and self._grad_fn is None
                                       and self._base._requires_grad and not self._inference)

    @requires_grad.setter
    def requires_grad(self, value) -> None:
        if self._grad_fn is not None:  # PyTorch: the attribute refuses even True on a non-leaf (requires_grad_ allows it)
            raise error_class("non_leaf_requires_grad")(
                "you can only change requires_grad flags of leaf variables.",
            )
        try:
            self._set_requires_grad(bool(value))
        except GradcliError as e:
            if e.kind == "requires_grad_dtype":
                e.torch_message = torch_text("requires_grad_dtype.attribute")
            raise

    @property
    def is_floating_point_(self) -> bool:
        return self._dtype.is_floating_point

    def is_floating_point(self) -> bool:
        """True for float16/32/64 tensors."""
        return self._dtype.is_floating_point

    @property
    def device(self):
        """torch.device('cpu'): gradcli is a CPU build (autograd/device.py)."""
        return _CPU

    @property
    def is_cuda(self) -> bool:
        return False

    def is_inference(self) -> bool:
        """True for tensors created under inference_mode."""
        return self._inference

    @property
    def _is_view_flag(self) -> bool:
        return self._base is not None

    @property
    def _autograd_view(self) -> bool:
        """A view as PyTorch's autograd sees one (``_is_view()``, ``_base``, check_inplace): not a view of an
        inference tensor, which is an inference tensor without the ADInplaceOrView key, so no view metadata
        (``_base`` None, in place outside inference_mode checked as a plain tensor; measured, 2.13).  gradcli
        keeps its ``_base`` link for the shared storage."""
        return self._base is not None and not self._inference

    # --- the `_` attributes PyTorch documents (SPEC §2b), read through lang.access ----------------
    def _gradcli_private(self, name: str):
        """``t._version`` (the version counter's value; an inference tensor has none: runtime error),
        ``t._base`` (the tensor this one is a view of, or None) and ``t._is_view()``."""
        if name == "_version":
            if self._inference:
                raise error_class("runtime")("Inference tensors do not track version counter.")
            return self._version[0]
        if name == "_base":
            return self._base if self._autograd_view else None
        if name == "_is_view":
            return self._view_query
        raise error_class("runtime")(f"'Tensor' object has no attribute '{name}'", torch_type=AttributeError)

    def _view_query(self) -> bool:
        """``t._is_view()``: is t a view of another tensor (PyTorch's is_view)?"""
        return self._autograd_view

    # --- grad ---------------------------------------------------------------------------
    @property
    def grad(self) -> Optional["Tensor"]:
        """The accumulated gradient; reading it on a non-leaf without retain_grad warns (``non_leaf_grad``)."""
        if self._grad_fn is not None and not self._retains_grad and self._grad is None:
            warn("non_leaf_grad", _NON_LEAF_GRAD_MSG)
        return self._grad

    @property
    def volatile(self) -> bool:
        """Removed in PyTorch 0.4: always False, with PyTorch's UserWarning (kind ``other``)."""
        warn("other", "volatile was removed (Variable.volatile is always False)")
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        warn("other", "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.")

    @grad.deleter
    def grad(self) -> None:  # ``del x.grad``: PyTorch sets it to None
        self._grad = None

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise ArgumentTypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._dtype is not self._dtype:
                got, want = TORCH_DTYPE_NAMES.get(value._dtype.name), TORCH_DTYPE_NAMES.get(self._dtype.name)
                raise error_class("runtime")(
                    "assigned grad has data of a different type",
                    torch_message=None if got is None or want is None else torch_text(
                        "grad_dtype", got=got[0], want=want[1]))
            if value._data.shape != self._data.shape:
                raise error_class("runtime")(
                    "assigned grad has data of a different size",
                    torch_message=torch_text("grad_size", got=", ".join(map(str, value._data.shape)),
                                             want=", ".join(map(str, self._data.shape))))
        self._grad = value

    def _set_requires_grad(self, flag: bool) -> None:
        if self._grad_fn is not None:
            if flag:
                return
            raise error_class("non_leaf_requires_grad")(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
            )
        if flag and not self._dtype.is_floating_point:
            raise error_class("requires_grad_dtype")(
                "Only Tensors of floating point and complex dtype can require gradients "
                f"(this tensor is {self._dtype}).",
            )
        if flag and self._inference and not _mode.inference:
            raise error_class("runtime")(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if not flag and self._requires_grad:
            self._origin = ("requires_grad_false", _pos.loc, None)
        self._requires_grad = flag

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Set requires_grad in place on a leaf and return self (non-leaves: only True is accepted).  Raises
        TypeError (kind ``type``) for a non-bool flag, as PyTorch's argument parser (an int too)."""
        if type(requires_grad) is not bool:
            raise ArgumentTypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                                    f"{type(requires_grad).__name__}")
        try:
            self._set_requires_grad(bool(requires_grad))
        except GradcliError as e:
            if e.kind == "requires_grad_dtype":
                e.torch_message = torch_text("requires_grad_dtype.method")
            raise
        return self

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` after backward (a no-op on leaves)."""
        if not self.requires_grad:
            raise error_class("retain_grad_no_grad")("can't retain_grad on Tensor that has requires_grad=False")
        # PyTorch's C++ is_leaf() reads the grad_fn field: a view whose base gained a history since the view was
        # made, and whose grad_fn was not read since, is a leaf here (a no-op), though its grad_fn is not None
        if self._grad_fn is None or self._retains_grad:
            return
        self.grad_fn  # noqa: B018 - a stale view's grad_fn is regenerated before the hook is attached
        self._retains_grad = True
        self._attach_retain()

    def _attach_retain(self) -> None:
        fn = self._grad_fn
        if fn._retained is None:
            fn._retained = {}
        fn._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook) -> RemovableHandle:
        """Register ``hook(grad) -> Tensor | None`` called with this tensor's gradient during backward."""
        if not self.requires_grad:
            raise error_class("runtime")("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self._grad_fn._add_pre_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = []
        accumulate_grad_node(self)
        self._hooks.append(hook)
        return RemovableHandle(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
        """Register ``hook(tensor)`` called after the gradient is accumulated into this leaf's .grad."""
        if self._grad_fn is not None:
            raise error_class("runtime")("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = []
        self._post_acc_hooks.append(hook)
        return RemovableHandle(self._post_acc_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. graph leaves (torch.Tensor.backward)."""
        from .engine import backward

        backward([self], None if gradient is None else [gradient], retain_graph=retain_graph,
                 create_graph=create_graph, inputs=inputs)

    # --- detach / data -----------------------------------------------------------------
    def detach(self) -> "Tensor":
        """A new leaf sharing data and version counter with self, not requiring grad."""
        t = Tensor._from_data(self._data, self._dtype)
        t._version = self._version
        t._inference = self._inference
        t._zero = self._zero
        if self._requires_grad:
            t._origin = ("detach", _pos.loc, weakref.ref(self))
        return t

    def detach_(self) -> "Tensor":
        """Detach in place: self becomes a leaf that does not require grad (views refuse: ``detach_view``).

        A no-op inside inference_mode and on an inference tensor: PyTorch's detach_ is an autograd kernel, which
        neither reaches."""
        if self._inference or _mode.inference:
            return self
        if self._base is not None:
            raise error_class("detach_view")(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                "buckets, and hence detach_() cannot be called on these gradients.",
            )
        if self._requires_grad:
            self._origin = ("detach_", _pos.loc, None)
        self._grad_fn = None
        self._requires_grad = False  # retains_grad stays, as in PyTorch: the old grad_fn's hook still fills .grad
        return self

    @property
    def data(self) -> "Tensor":
        """Like detach() but with its own version counter (PyTorch's .data escapes version checks).  It is an
        inference tensor exactly when self is, inside inference_mode or not (PyTorch's variable_data copies the
        tensor's key set; it is no op the mode reaches)."""
        t = Tensor._from_data(self._data, self._dtype)
        t._inference = self._inference
        t._zero = self._zero
        if self._requires_grad:
            t._origin = ("data", _pos.loc, weakref.ref(self))
        return t

    @data.setter
    def data(self, value: "Tensor") -> None:
        if not isinstance(value, Tensor):
            raise ArgumentTypeError(f"data must be a Tensor, not {type(value).__name__}")
        self._data = value._data
        self._dtype = value._dtype

    # --- conversion -------------------------------------------------------------------
    def item(self):
        """The single value as a Python number (``item_non_scalar`` for other sizes)."""
        if _batching.state.depth:
            _batching.check_scalar(self, "item")
        if self._data.size != 1:
            raise error_class("item_non_scalar")(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar",
                "item() needs a one-element tensor; index it first (t[0].item()) or use .tolist().",
            )
        return self._data.reshape(()).item()

    def _is_zerotensor(self) -> bool:
        """Is this PyTorch's immutable ZeroTensor (autograd/zerotensor.py: sgn's gradient of a real tensor)?"""
        return self._zero

    def tolist(self):
        """Nested Python lists of numbers (floats of the stored float32 values, as PyTorch)."""
        if _batching.state.depth:
            _batching.check_scalar(self, "tolist()")
        if self._zero:
            raise _zt.error(_zt.TOLIST)
        _limits.python_objects(self._data.size)
        return self._data.tolist()

    def numpy(self, *args, force: bool = False):
        """A numpy-like array sharing memory (``numpy_requires_grad`` when it requires grad); ``force`` is
        keyword-only, as PyTorch's: ``x.numpy(True)`` is its TypeError (it skipped the requires-grad check)."""
        if args:
            from ..errors import ArgumentTypeError

            n = len(args)
            raise ArgumentTypeError(f"numpy() takes 0 positional arguments but {n} {'was' if n == 1 else 'were'} given")
        if _batching.state.depth:
            _batching.check_scalar(self, "numpy()")
        if self._zero and not force:
            raise _zt.error(_zt.NUMPY)
        if self.requires_grad and not force:
            raise error_class("numpy_requires_grad")(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
            )
        from .ndarray import NDArray

        return NDArray(self._data)

    def dim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        """Number of elements."""
        return int(self._data.size)

    nelement = numel

    def size(self, dim: Optional[int] = None):
        """torch.Size of the tensor, or the size of one dimension."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def element_size(self) -> int:
        return self._dtype.itemsize

    def stride(self, dim: Optional[int] = None):
        st = tuple(s // self._data.itemsize for s in self._data.strides)
        return st if dim is None else st[_wrap_dim(dim, self._data.ndim)]

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    def _version_value(self) -> int:
        return self._version[0]

    @property
    def _version_public(self) -> int:  # pragma: no cover
        return self._version[0]

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise ArgumentTypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise ArgumentTypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # PyTorch iterates through unbind (UnbindBackward0)

    def __bool__(self) -> bool:
        if _batching.state.depth:
            _batching.check_scalar(self, "bool")
        if self._data.size != 1:
            raise error_class("runtime")(
                f"Boolean value of Tensor with more than one value is ambiguous"
                if self._data.size > 1 else "Boolean value of Tensor with no values is ambiguous",
            )
        return bool(self._data.reshape(()).item())

    def _scalar(self, kind):
        if _batching.state.depth:
            _batching.check_scalar(self, "item")
        if self._data.size != 1:
            raise error_class("runtime")("only one element tensors can be converted to Python scalars",
                                         torch_type=ValueError)
        return kind(self._data.reshape(()).item())

    def __float__(self) -> float:
        if self.requires_grad:
            warn_scalar_conversion()
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if _batching.state.depth:
            _batching.check_scalar(self, "item")
        if self._dtype.is_floating_point or self._data.size != 1:
            raise ArgumentTypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __hash__(self) -> int:
        return id(self)

    def __delitem__(self, key) -> None:  # ``del t[i]``: PyTorch's TypeError
        raise ArgumentTypeError("Tensor does not support deleting items")

    # --- printing -------------------------------------------------------------------------
    def __repr__(self) -> str:
        from .printing import format_tensor

        if _batching.state.depth:
            _batching.check_scalar(self, "printing")

        try:
            fn = self.grad_fn
            name = None if fn is None else type(fn).__name__
        except GradcliError:  # a view whose history may not be rebased: PyTorch prints grad_fn=<Invalid>
            name = "Invalid"
        tangent = None
        if _fwd.level is not None:  # a dual tensor (torch.autograd.forward_ad) prints its tangent
            from .forward_ad import tangent_suffix

            tangent = tangent_suffix(self)
        return format_tensor(self._data, self._dtype.name, default_dtype=_dt.get_default_dtype().name,
                             requires_grad=self.requires_grad, grad_fn=name, is_leaf=name is None, tangent=tangent)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        # as torch.Tensor.__format__: a 0-d tensor formats its item, any other one only with an empty spec
        if self._data.ndim == 0:
            try:
                return format(self._data.item(), spec)
            except ValueError as e:
                raise error_class("runtime")(f"ValueError: {e}") from None
        if spec:
            raise ArgumentTypeError("unsupported format string passed to Tensor.__format__")
        return str(self)


def _wrap_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise ArgumentIndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


from .device import CPU as _CPU  # noqa: E402  (torch.device('cpu'): every tensor's device)


#: PyTorch warns once per process (TORCH_WARN_ONCE) when float()/complex() -- also inside torch.tensor([...]) --
#: converts a tensor that requires grad; int(), .item(), .tolist() and f-strings do not warn (measured, 2.13)
_SCALAR_MSG = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
               "Consider using tensor.detach() first.")
_warned_scalar = [False]


def warn_scalar_conversion() -> None:
    """The scalar-conversion warning (kind ``other``), the first time in a run."""
    if not _warned_scalar[0]:
        _warned_scalar[0] = True
        warn("other", _SCALAR_MSG)


def reset() -> None:
    """Forget the once-per-process warnings (a new run starts as a new process)."""
    _warned_scalar[0] = False


def view_rebase_message(view: Tensor, indirect: bool, torch_names: bool = False) -> str:
    """PyTorch's error for a view that may not be rebased (handle_view_on_rebase in variable.cpp).

    ``torch_names``: the node as PyTorch's message names it (``Split``, errors.torch_node_name), for
    ``torch_message``; else gradcli's name of it (``SplitBackward0``)."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    fn = view._grad_fn
    how = view._creation
    node = None if fn is None else (torch_node_name(fn.name()) if torch_names else fn.name())
    if how == "custom" and fn is not None:
        return (f"Output {view._output_nr} of {node} is a view and {modified} modified inplace. This view was "
                "created inside a custom Function (or because an input was returned as-is) and the autograd logic "
                "to handle view+inplace would override the custom backward associated with the custom Function, "
                "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output "
                "of the custom Function.")
    if how in ("no_grad", "inference") or fn is None:
        prefix = (f"Output {view._output_nr} of {node} is a view of a view which was created in"
                  if fn is not None else "A view was created in")
        if how == "inference":
            msg = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            msg = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        msg = f"Output {view._output_nr} of {node} is a view and {modified} modified inplace."
    if how == "multi":
        msg += (" This view is the output of a function that returns multiple views. Such functions do not "
                "allow the output views to be modified inplace. You should replace the inplace operation by an "
                "out-of-place one.")
    elif how in ("no_grad", "inference"):
        block = "no_grad" if how == "no_grad" else "inference_mode"
        msg += (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
                f"code by moving both the view and the inplace either both inside the {block} block (if you "
                "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).")
    return msg


def tensor_public_names() -> frozenset:
    """The names a file may read on a Tensor: every public attribute of the class (after ops attach theirs)."""
    return frozenset(n for n in dir(Tensor) if not n.startswith("_"))


def _unused(*_: Any) -> None:  # pragma: no cover
    return None
