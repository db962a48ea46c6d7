"""In-place ops: ``add_ sub_ mul_ div_ pow_ zero_ fill_ clamp_ copy_``, ``x[i] = v``, ``+= -= *= /=``.

PyTorch's rules (torch/csrc/autograd/VariableTypeUtils.h, variable.cpp):

* with grad enabled, an in-place op on a leaf that requires grad (or on a
  view of one) raises ``leaf_inplace`` before anything changes;
* every in-place op bumps the version counter shared by a tensor, its views
  and its ``detach()``-es; a saved tensor whose version changed makes the
  backward that unpacks it fail with ``inplace_modified``;
* the tensor's history is rebased: its ``grad_fn`` becomes the op's node,
  whose first edge is the old history.  On a view, the *base* gets a
  ``CopySlices`` node wrapping the op's node, and the view gets
  ``AsStridedBackward0`` pointing at the base's new history.

An op's node is built by running the out-of-place op on an alias of the old
value (a copy, so the saved "self" is the value before the change), then the
result is written into the tensor's storage.
"""

from __future__ import annotations

import numpy as np

from ..autograd.grad_mode import state as mode
from ..autograd import graph as _graph
from ..autograd.graph import inplace_log as _inplace_log
from ..autograd.graph import SavedTensor
from ..autograd.graph import source_position as _pos
from ..autograd import zerotensor as _zt
from ..autograd import forward_ad as _fwad
from ..errors import ArgumentIndexError, ArgumentTypeError, call_given, error_class
from ..autograd.tensor import view_rebase_message
from ._core import Node, Tensor, dt, edge, record, saved
from .registry import REGISTRY, register

_fw = _fwad.state


_bumps = _inplace_log.append


def check_inplace(t: Tensor) -> None:
    """Raise before an in-place op on t with grad mode on (PyTorch's check_inplace): a view made in
    no_grad/inference mode or by a multi-output op (runtime), a view whose base is a leaf (``leaf_inplace``),
    a leaf that requires grad (``leaf_inplace``)."""
    if not mode.enabled:
        return
    rg = t.requires_grad
    if t._autograd_view and rg:
        if t._creation is not None:
            raise error_class("runtime")(view_rebase_message(t, indirect=False),
                                         torch_message=view_rebase_message(t, indirect=False, torch_names=True))
        if t._base.is_leaf:
            raise error_class("leaf_inplace")(
                "a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if rg and t._grad_fn is None:  # C++ is_leaf(): the grad_fn field, not regenerated (a stale view is a leaf here)
        err = error_class("leaf_inplace")(
            "a leaf Variable that requires grad is being used in an in-place operation.")
        if t._autograd_view:
            err.hint = ("This is a view made before its base got a history (or was changed in place). PyTorch "
                        "refreshes a view's grad_fn only when it is read or the view is used in an op; until then "
                        "its in-place check counts the view as a leaf. Take the view again after the base's change, "
                        "or write into the base.")
        raise err


def _alias(t: Tensor) -> Tensor:
    """A stand-in for t's value before the change: same history, its own copy of the data."""
    a = Tensor._from_data(np.array(t._data, copy=True), t._dtype)
    a._requires_grad = t._requires_grad
    a._grad_fn = t._grad_fn
    a._output_nr = t._output_nr
    if _fw.level is not None:
        tan = _fwad.tangent_of(t)
        if tan is not None:
            a._fw = (_fw.serial, tan)
    return a


def _clone_alias(t: Tensor) -> Tensor:
    """The stand-in for t's old value while saved-tensor hooks are active: ``t.clone()`` recorded
    (CloneBackward0), which is what PyTorch's in-place kernels save for a formula that needs the old self, and
    what a pack hook then sees (see :func:`_edges_from_self` for the op's edges)."""
    from .shape import clone

    return clone(t)


def _edges_from_self(out: Tensor, old: Tensor) -> None:
    """The op's node takes its edge from self, not from the clone it saved (as PyTorch's does)."""
    node = out._grad_fn
    cf = old._grad_fn
    if node is None or cf is None:
        return
    node.next_functions = tuple(cf.next_functions[0] if nx is cf else (nx, nr) for nx, nr in node.next_functions)


_CAT = {0: "Bool", 1: "Long", 2: "Float"}


def _cast_name(d) -> str:
    return {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool",
            "float16": "Half"}.get(d.name, d.name)


def _internal_overlap(a: np.ndarray) -> bool:
    """Does some memory location hold more than one element of ``a`` (an expanded tensor)?"""
    return a.size > 0 and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape))  # empty: nothing shared


def _dispatches(other, wraps_number: bool) -> bool:
    """Does ``other`` bring autograd into an op on an inference tensor: a normal tensor, or a Python number
    that PyTorch wraps in a normal tensor (the Tensor overloads of add_/sub_/mul_/div_)?"""
    if isinstance(other, Tensor):
        return not other._inference
    return wraps_number and isinstance(other, (int, float, bool))


def apply_inplace(t: Tensor, compute, *, src=None, check: bool = True, overlap_ok: bool = False,
                  autograd_inputs: bool = False, values=None) -> Tensor:
    """Run ``compute(old) -> Tensor`` out of place and write the result into t, rebasing t's history.

    compute receives an alias of t's current value; the result must broadcast to t's shape.  Raises
    leaf_inplace, and a runtime error when the result's dtype cannot be cast to t's (e.g. float into long).
    src: the op's other tensor input, if any, checked against t by PyTorch's assert_no_partial_overlap
    (:func:`check_overlap`) after autograd's checks; where PyTorch cannot judge their overlap (a non-dense one)
    and they share memory, ``values(a, b)`` (the op on plain tensors of t's and src's elements) writes t in
    the CPU loop's order (:func:`write_in_kernel_order`); an op without ``values`` refuses as for a partial
    overlap.  autograd_inputs: another input is a normal tensor (see
    _dispatches).  For an inference tensor changed outside inference_mode, PyTorch's autograd checks
    (leaf_inplace, ...) run only when one is; the kernel then writes the values and the version bump fails
    (runtime), before any history is recorded.
    """
    if t._zero:
        raise _zt.error(_zt.IMMUTABLE)
    outside = t._inference and not mode.inference
    if check and (autograd_inputs or not outside):
        check_inplace(t)
    sequential = check_overlap(t, src)
    if sequential and values is None:
        raise _partial_overlap_error()
    if not overlap_ok and _internal_overlap(t._data):  # PyTorch's assert_no_internal_overlap (fill_ allows it)
        raise error_class("runtime")(
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")
    if t._base is not None and mode.enabled and check:
        t._view_grad_fn()  # a view's history is current before it is rebased (a logical_X_ rebases nothing)
    hooked = mode.enabled and _graph.pack_hooks
    old = (_clone_alias(t) if hooked else _alias(t)) if mode.enabled else t
    out = compute(old)
    if hooked:
        _edges_from_self(out, old)
    if t._base is not None and t._creation is not None and out._grad_fn is not None and mode.enabled:
        # another input requires grad
        raise error_class("runtime")(view_rebase_message(t, indirect=False),
                                         torch_message=view_rebase_message(t, indirect=False, torch_names=True))
    if out._dtype is not t._dtype and out._dtype.category > t._dtype.category:
        raise error_class("runtime")(
            f"result type {_cast_name(out._dtype)} can't be cast to the desired output type {_cast_name(t._dtype)}")
    result = out._data
    if result.shape != t._data.shape:
        try:
            result = np.broadcast_to(result, t._data.shape)
        except ValueError:
            raise error_class("shape")(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(np.broadcast_shapes(t._data.shape, result.shape)) if _bc(t._data.shape, result.shape) else list(result.shape)}"
            ) from None
    if _fw.level is not None:
        _fwad.on_inplace(t, out)  # (a dual result: its tangent is written into t's)
    if sequential:
        write_in_kernel_order(t._data, src._data, _values_kernel(values, t._dtype, src._dtype))
        if out._data.shape == t._data.shape and out._data.flags.writeable:
            np.copyto(out._data, t._data)  # the op's result as written
    else:
        np.copyto(t._data, result, casting="unsafe")
    if outside:
        raise error_class("runtime")(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
            "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
            "details.")
    t._version[0] += 1
    _bumps((t._version, t._version[0], _pos.loc))  # for the explainers (app/related.py)
    node = out._grad_fn
    if node is not None and mode.enabled:
        _tie_saved_result(node, out, t)
        if t._base is not None:
            _rebase_view(t, node)
        else:
            old_fn = t._grad_fn
            t._grad_fn = node
            t._output_nr = out._output_nr
            t._requires_grad = True
            if t._retains_grad:
                if old_fn is None:  # detach_() after retain_grad(): PyTorch's hook move finds no old grad_fn
                    raise error_class("runtime")(
                        'old_fn INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/autograd/variable.cpp":205, '
                        "please report a bug to PyTorch. ")
                t._attach_retain()
    return t


def _tie_saved_result(node: Node, out: Tensor, t: Tensor) -> None:
    """A result the op's node saved (exp_, relu_, sqrt_, ...) is t itself in PyTorch: it takes t's version
    counter at its new version, so a later in-place change of t fails the backward (inplace_modified).
    Saved inputs stay the copy of the old value (PyTorch saves a clone of self for an in-place op)."""
    for s in node._saved or ():
        if type(s) is SavedTensor and s._is_output and s._box is out._version:
            s._box = t._version
            s._version = t._version[0]


def _bc(a, b) -> bool:
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


class CopySlices(Node):
    """The base's node after an in-place op on one of its views (torch/csrc/autograd/functions/tensor.cpp)."""

    __slots__ = ("fn", "view_fn", "shape", "dtype")

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    formula = "base: grad with the view's region replaced by fn's gradient for the view; others: fn's gradients"

    def apply(self, grads):
        if self._freed:
            # PyTorch's CopySlices drops its fn when released, so any second pass fails, saved tensors or not
            self._unpack(None)
        g = grads[0]
        fn = self.fn
        fn._needs = tuple(self._needs)  # edge 0 of fn is the view's old value: needed iff the base's old history is
        if mode.enabled:
            return self._apply_recorded(g, fn)
        result = np.array(g._data, dtype=self.dtype.np, copy=True)
        region = self.view_fn(result)
        res = fn.apply([Tensor._from_data(np.array(region, copy=True), self.dtype)])
        r0 = res[0] if self._needs[0] else None
        if r0 is not None:
            if r0._data.shape != region.shape:
                r0 = r0.sum_to_size(region.shape)
            region[...] = r0._data
        else:
            region[...] = 0
        return (Tensor._from_data(result, self.dtype),) + tuple(res[1:])

    def _apply_recorded(self, g: Tensor, fn: Node):
        """Under create_graph: PyTorch's CopySlices::apply_impl in recorded ops, so the gradient has a history
        (``result = empty.copy_(grad)``; ``grad_slice = result.as_strided(view)``; ``res = fn(grad_slice.clone())``;
        ``grad_slice.copy_(res[0])``, which gives result a CopySlices of its own)."""
        result = copy_(Tensor._from_data(np.empty(self.shape, dtype=self.dtype.np), self.dtype), g)
        grad_slice = view_by(result, self.view_fn)
        res = fn.apply([grad_slice.clone()])
        r0 = res[0] if self._needs[0] else None
        if r0 is None:
            return (None,) + tuple(res[1:])
        if r0._data.shape != grad_slice._data.shape:
            r0 = r0.sum_to_size(grad_slice._data.shape)
        copy_(grad_slice, r0)
        return (result,) + tuple(res[1:])

    def _release(self) -> None:
        from ..autograd.graph import source_position

        self.fn._release()
        self._freed = source_position.loc or True

    def _unpack(self, i):
        if self._freed:
            return Node._unpack(self, i)  # raises second_backward
        return self.fn._unpack(i)


class AsStridedBackward0(Node):
    __slots__ = ("view_fn", "shape", "dtype")
    formula = "base: zeros(base.sizes()) with grad in the view's region"

    def apply(self, grads):
        g = grads[0]
        if mode.enabled and g.requires_grad:
            # under create_graph, recorded (PyTorch's as_strided_backward: zeros, its region copy_'d from grad)
            buf = Tensor._from_data(np.zeros(self.shape, dtype=self.dtype.np), self.dtype)
            copy_(view_by(buf, self.view_fn), g)
            return (view_by(buf, _whole),)  # PyTorch returns buf.as_strided(input's geometry)
        data = np.zeros(self.shape, dtype=self.dtype.np)
        region = self.view_fn(data)
        if _internal_overlap(region):
            # an expanded view: several of its elements are one base element, whose gradient is their sum
            # (PyTorch's as_strided_backward: index_add_ over the flattened indices, in order)
            index = self.view_fn(np.arange(data.size).reshape(self.shape))
            np.add.at(data.reshape(-1), np.broadcast_to(index, region.shape).reshape(-1),
                      np.broadcast_to(g._data, region.shape).reshape(-1))
        else:
            region[...] = g._data
        return (Tensor._from_data(data, self.dtype),)


def _whole(a: np.ndarray) -> np.ndarray:
    return a


def view_by(t: Tensor, view_fn) -> Tensor:
    """The view of t that ``view_fn`` (a numpy replay of a view chain) selects, as PyTorch's ``t.as_strided``:
    it shares t's storage and version counter, and its node (when t requires grad) is AsStridedBackward0."""
    from .shape import _view

    out, node = _view(t, view_fn(t._data), AsStridedBackward0, view_fn)
    if node is not None:
        node.view_fn = view_fn
        node.shape = t._data.shape
        node.dtype = t._dtype
    return out


def as_strided_node(view: Tensor) -> Node:
    """The AsStridedBackward0 node a view gets when its base's history changed under it: the view's region of
    the base's current history (its grad_fn, or its AccumulateGrad)."""
    base = view._base
    av = AsStridedBackward0()
    av.view_fn = view._view_fn
    av.shape = base._data.shape
    av.dtype = base._dtype
    av.next_functions = (edge(base),)
    av._meta = ((base._data.shape, base._dtype),)
    return av


def _rebase_view(view: Tensor, fn: Node) -> None:
    base = view._base
    cs = CopySlices()
    cs.fn = fn
    cs.view_fn = view._view_fn
    cs.shape = base._data.shape
    cs.dtype = base._dtype
    cs.next_functions = (edge(base),) + tuple(fn.next_functions[1:])
    cs._meta = ((base._data.shape, base._dtype),) + tuple(fn._meta[1:])
    cs._loc = fn._loc
    base._grad_fn = cs
    base._output_nr = 0
    base._requires_grad = True
    if base._retains_grad:
        base._attach_retain()
    view._grad_fn = as_strided_node(view)
    view._output_nr = 0
    view._requires_grad = True
    view._view_version = view._version[0]
    if view._retains_grad:
        view._attach_retain()


# --- the ops ----------------------------------------------------------------------------------------


def non_overlapping_and_dense(a: np.ndarray) -> bool:
    """PyTorch's is_non_overlapping_and_dense: some order of the dims (size-1 dims aside) makes the strides
    1, size0, size0*size1, ... elements -- the elements fill one block of memory exactly."""
    isz = a.itemsize
    dims = sorted((st, n) for n, st in zip(a.shape, a.strides) if n > 1)
    need = isz
    for st, n in dims:
        if st != need:
            return False
        need *= n
    return True


def check_overlap(t: Tensor, src) -> bool:
    """PyTorch's assert_no_partial_overlap: a source that shares memory with the written tensor must cover
    exactly the same elements (same start, shape and strides), else the result would depend on order.

    PyTorch decides this only when both are non-overlapping and dense (get_overlap_status, MemOverlap.cpp);
    otherwise it is "too hard" and the kernel runs through memory it is writing.  Returns True in that case
    when the two do share memory (the caller then evaluates the op in the kernel's order), else False."""
    if not isinstance(src, Tensor):
        return False
    a, b = t._data, src._data
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b):
        return False
    if not (non_overlapping_and_dense(a) and non_overlapping_and_dense(b)):
        return True
    same = (a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.shape == b.shape
            and all(sa == sb for sa, sb, n in zip(a.strides, b.strides, a.shape) if n > 1))  # size-1: any stride
    if not same:
        raise _partial_overlap_error()
    return False


def _partial_overlap_error() -> Exception:
    return error_class("runtime")(
        "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
        "single memory location. Please clone() the tensor before performing the operation.")


_VEC_BYTES = 32  # PyTorch 2.13's CPU kernels on this machine's AVX2: Vectorized<T> holds 32 bytes


def write_in_kernel_order(dst: np.ndarray, other: np.ndarray, kernel) -> None:
    """``dst[...] = kernel(dst, other)`` elementwise, evaluated as PyTorch's CPU loop runs when ``other`` shares
    memory with ``dst`` in a way its overlap check cannot judge: later elements read what earlier ones wrote.

    Order (TensorIterator): dims by dst's strides, innermost the smallest, merged while every operand stays
    contiguous across them; outer positions in C order.  Along a row, the vectorized loop (all operands of one
    dtype, dst contiguous, ``other`` contiguous or constant along the row) loads 2 x 32 bytes of every input
    before it stores them, a constant ``other`` once at the row's start; the rest of the row, and every other
    row, go element by element (cpu_kernel_vec's vectorized_loop and basic_loop, ATen/native/cpu/Loops.h).
    ``kernel(a, b)`` gives the op's values for arrays of dst's and other's elements (numpy arrays)."""
    ob = np.broadcast_to(other, dst.shape)  # a view: it reads the shared memory as dst changes
    if dst.ndim == 0:
        dst[...] = kernel(dst.copy(), ob.copy())
        return
    perm = sorted(range(dst.ndim), key=lambda d: dst.strides[d], reverse=True)  # outer ... inner
    shape = [dst.shape[d] for d in perm]
    ds = [dst.strides[d] for d in perm]
    os_ = [ob.strides[d] for d in perm]
    # merge the innermost dims while both stay contiguous across them (TensorIterator's coalesce_dimensions)
    n, dst_st, oth_st = shape[-1], ds[-1], os_[-1]
    k = len(shape) - 1
    while k > 0 and ds[k - 1] == dst_st * n and os_[k - 1] == oth_st * n:
        n *= shape[k - 1]
        k -= 1
    outer = shape[:k]
    d_rows = np.lib.stride_tricks.as_strided(dst, tuple(outer) + (n,), tuple(ds[:k]) + (dst_st,))
    o_rows = np.lib.stride_tricks.as_strided(ob, tuple(outer) + (n,), tuple(os_[:k]) + (oth_st,),
                                             writeable=False)
    vec = dst.dtype == other.dtype and dst_st == dst.itemsize and oth_st in (0, other.itemsize)
    chunk = 2 * (_VEC_BYTES // dst.itemsize)
    for idx in np.ndindex(*outer):
        drow, orow = d_rows[idx], o_rows[idx]
        i = 0
        if vec and n >= chunk:
            first = orow[0].copy()  # a constant operand is loaded once for the vectorized part
            for i in range(0, n - chunk + 1, chunk):
                b = np.full(chunk, first) if oth_st == 0 else orow[i:i + chunk].copy()
                drow[i:i + chunk] = kernel(drow[i:i + chunk].copy(), b)
            i += chunk
        for j in range(i, n):
            drow[j:j + 1] = kernel(drow[j:j + 1].copy(), orow[j:j + 1].copy())


def _values_kernel(fn, self_dtype, other_dtype):
    """kernel(a, b) for write_in_kernel_order: ``fn(self_values, other_values)`` (apply_inplace's ``values``) on
    plain tensors of the operands' dtypes, as the op computes them, cast to self's dtype."""
    def kernel(a, b):
        prev = mode.enabled
        mode.enabled = False  # values only: nothing is recorded
        try:
            r = fn(Tensor._from_data(np.ascontiguousarray(a), self_dtype),
                   Tensor._from_data(np.ascontiguousarray(b), other_dtype))
        finally:
            mode.enabled = prev
        return r._data.astype(self_dtype.np, copy=False)
    return kernel


def add_(self, other, *, alpha=1):
    """self += alpha * other in place (AddBackward0)."""
    return apply_inplace(self, lambda old: old.add(other, alpha=alpha),
                         src=other, autograd_inputs=_dispatches(other, True),
                         values=lambda a, b: a.add(b, alpha=alpha))


def sub_(self, other, *, alpha=1):
    """self -= alpha * other in place (SubBackward0)."""
    return apply_inplace(self, lambda old: old.sub(other, alpha=alpha),
                         src=other, autograd_inputs=_dispatches(other, True),
                         values=lambda a, b: a.sub(b, alpha=alpha))


def mul_(self, other):
    """self *= other in place (MulBackward0)."""
    return apply_inplace(self, lambda old: old.mul(other),
                         src=other, autograd_inputs=_dispatches(other, True),
                         values=lambda a, b: a.mul(b))


def div_(self, other, *, rounding_mode=None):
    """self /= other in place (DivBackward0); an integer tensor cannot hold the float result."""
    return apply_inplace(self, lambda old: old.div(other, rounding_mode=rounding_mode),
                         src=other, autograd_inputs=_dispatches(other, True),
                         values=lambda a, b: a.div(b, rounding_mode=rounding_mode))


def pow_(self, exponent):
    """self **= exponent in place."""
    return apply_inplace(self, lambda old: old.pow(exponent),
                         src=exponent, autograd_inputs=_dispatches(exponent, False))


def clamp_(self, min=None, max=None):
    """Clamp in place (ClampBackward1)."""
    return apply_inplace(self, lambda old: old.clamp(min, max))


def clamp_min_(self, min):
    """Clamp from below in place (ClampMinBackward0 for a number, as the out-of-place clamp_min)."""
    return apply_inplace(self, lambda old: old.clamp_min(min),
                         src=min, autograd_inputs=_dispatches(min, False))


def clamp_max_(self, max):
    """Clamp from above in place (ClampMaxBackward0 for a number, as the out-of-place clamp_max)."""
    return apply_inplace(self, lambda old: old.clamp_max(max),
                         src=max, autograd_inputs=_dispatches(max, False))


#: the in-place forms whose out-of-place op takes arguments besides the tensor
_UNARY_WITH_ARGS = frozenset({"nan_to_num", "cumsum", "cumprod", "round"})  # round_(decimals=)


def _unary_inplace(name, method=None):
    method = method or name + "_"

    def fn(self, *args, **kwargs):
        if name not in _UNARY_WITH_ARGS:
            # PyTorch's argument parser (TensorBase.exp_(1): a TypeError, kind type, before anything runs)
            if kwargs:
                raise ArgumentTypeError(f"TensorBase.{method}() takes no keyword arguments")
            if args:
                raise ArgumentTypeError(f"TensorBase.{method}() takes no arguments ({len(args)} given)")
        else:
            import inspect

            try:
                inspect.signature(getattr(Tensor, name)).bind(self, *args, **kwargs)
            except TypeError as e:  # the out-of-place op's own parameters decide (cumsum_(): "dim" missing)
                raise ArgumentTypeError(f"{method}(): {e}") from None
            except ValueError:  # pragma: no cover - a builtin without a signature: the op checks itself
                pass
        return apply_inplace(self, lambda old: getattr(old, name)(*args, **kwargs))

    fn.__name__ = method
    fn.__doc__ = (f"Tensor.{name}_(): {name} written into the tensor, with the out-of-place op's grad_fn (PyTorch's "
                  "in-place forms share their derivative formula); leaf_inplace on a leaf that requires grad.")
    return fn


def _check_binds(name: str, self, other, args: tuple, kwargs: dict) -> None:
    """Arguments the out-of-place op does not take (``x.lerp_(1, keepdim=3)``) are PyTorch's TypeError from its
    argument parser, not a Python TypeError inside apply_inplace (an internal error; a fuzz finding)."""
    import inspect

    try:
        sig = inspect.signature(getattr(Tensor, name))
    except (TypeError, ValueError):
        return
    try:
        sig.bind(self, other, *args, **kwargs)
    except TypeError:
        raise ArgumentTypeError(f"{name}_() received an invalid combination of arguments") from None


def _binary_inplace(name):
    def fn(self, other, *args, **kwargs):
        _check_binds(name, self, other, args, kwargs)
        return apply_inplace(self, lambda old: getattr(old, name)(other, *args, **kwargs), src=other,
                             autograd_inputs=_dispatches(other, False))

    fn.__name__ = name + "_"
    fn.__doc__ = (f"Tensor.{name}_(other): {name} written into the tensor (the out-of-place op's grad_fn); the result "
                  "must fit the tensor's shape and dtype.")
    return fn


def torch_inplace(method: str, unary: bool = False):
    """torch.X_(input, ...): the Tensor method X_ as a function; a non-tensor input is PyTorch's TypeError.
    ``unary``: the binding takes only ``input`` (``torch.sin_(x)``), so anything more is its parser's TypeError
    (texts checked against PyTorch 2.13 for each of :data:`TORCH_UNARY_INPLACE`)."""

    def fn(*args, **kwargs):
        if unary:
            if not args and "input" not in kwargs:
                raise ArgumentTypeError(f'{method}() missing 1 required positional arguments: "input"')
            extra = [k for k in kwargs if k != "input" or args]
            if extra:
                raise ArgumentTypeError(f"{method}() got an unexpected keyword argument '{extra[0]}'")
            if len(args) > 1:
                raise ArgumentTypeError(f"{method}() takes 1 positional argument but {len(args)} were given")
        if not args:
            if "input" not in kwargs:
                raise ArgumentTypeError(f'{method}() missing 1 required positional arguments: "input"')
            args = (kwargs.pop("input"),)
        input, args = args[0], args[1:]
        if not isinstance(input, Tensor):
            raise ArgumentTypeError(f"{method}(): argument 'input' (position 1) must be Tensor, not "
                                    f"{getattr(type(input), '_gradcli_type_name', type(input).__name__)}")
        return call_given(getattr(input, method), *args, **kwargs)  # (wrong arguments: PyTorch's TypeError)

    fn.__name__ = method
    fn.__doc__ = f"torch.{method}(input, ...): input.{method}(...)."
    return fn


def _cmp_node(name: str, with_tensor: bool) -> type:
    """EqBackward0 (a number) / EqBackward1 (a tensor) ...: the in-place comparisons are recorded, with zero
    gradients (derivatives.yaml: ``self: zeros_like(self)``, and the same for a tensor ``other``)."""

    def apply(self, grads):
        from .creation import zeros_like

        g = grads[0]
        return tuple(zeros_like(g) if need else None for need in self._needs)

    return type(f"{name.capitalize()}Backward{1 if with_tensor else 0}", (Node,),
                {"__slots__": (), "apply": apply, "formula": "self: zeros_like(self); other: zeros_like(other)"})


_CMP_NODES: dict = {}


def _cmp_inplace(name: str):
    def fn(self, other):
        from . import elementwise as _ew

        key = (name, isinstance(other, Tensor))
        node_cls = _CMP_NODES.get(key)
        if node_cls is None:
            node_cls = _CMP_NODES[key] = _cmp_node(name, key[1])

        def compute(old):
            data = getattr(_ew, name)(old.detach(), other.detach() if isinstance(other, Tensor) else other)._data
            out, _ = record(node_cls, data.astype(old._dtype.np), old._dtype,
                            (old, other) if isinstance(other, Tensor) else (old,))
            return out

        return apply_inplace(self, compute, src=other, autograd_inputs=_dispatches(other, False))

    fn.__name__ = name + "_"
    fn.__doc__ = (f"Tensor.{name}_(other): the comparison's 1/0 written into the tensor in its dtype; recorded "
                  f"({name.capitalize()}Backward0 for a number, {name.capitalize()}Backward1 for a tensor) with zero "
                  "gradients, as PyTorch.")
    return fn


class ZeroBackward0(Node):
    __slots__ = ()
    formula = "self: zeros_like(grad)"

    def apply(self, grads):
        from .creation import zeros_like

        return (zeros_like(grads[0]),)


class FillBackward2(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


class FillBackward3(Node):
    __slots__ = ()
    formula = "self: zeros_like(grad); value: grad.sum()"

    def apply(self, grads):
        from .creation import zeros_like

        return (zeros_like(grads[0]), grads[0].sum())


def _const(cls, value_fn):
    def compute(old):
        data = np.broadcast_to(np.asarray(value_fn(old), dtype=old._dtype.np), old._data.shape).copy()
        out, _ = record(cls, data, old._dtype, (old,))
        return out

    return compute


def zero_(self):
    """Fill with zeros in place (ZeroBackward0 when it has history)."""
    return apply_inplace(self, _const(ZeroBackward0, lambda old: 0), overlap_ok=True)


def fill_(self, value):
    """Fill with a number in place (FillBackward2), or with a 0-d tensor (FillBackward3).  Anything else is
    PyTorch's argument-parser TypeError (its text, measured on PyTorch 2.13)."""
    if not isinstance(value, (int, float, complex, Tensor)):
        got = type(value).__name__
        shown = got
        if isinstance(value, (list, tuple)):
            shown = f"{got} of [{', '.join(dict.fromkeys(type(e).__name__ for e in value))}]"
        raise ArgumentTypeError(
            f"fill_() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            f" * (Tensor value)\n      didn't match because some of the arguments have invalid types: (!{shown}!)\n"
            f" * (Number value)\n      didn't match because some of the arguments have invalid types: (!{shown}!)\n")
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise error_class("runtime")(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value._data.ndim} dimensions.")

        def compute(old):
            data = np.broadcast_to(value._data.astype(old._dtype.np), old._data.shape).copy()
            out, _ = record(FillBackward3, data, old._dtype, (old, value))
            return out

        # PyTorch's fill_.Tensor refuses a tensor with internal overlap (an expanded one); fill_.Scalar does not
        return apply_inplace(self, compute)
    if isinstance(value, complex) and self._dtype.name != "bool":
        # gradcli has no complex dtypes: the real part when the imaginary one is 0, else PyTorch's overflow
        # error, which names the C++ type of the tensor's dtype (measured, 2.13)
        if value.imag != 0:
            cpp = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "int64_t",
                   "int32": "int", "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t"}
            raise error_class("runtime")(f"value cannot be converted to type {cpp[self._dtype.name]} without overflow")
        value = value.real
    elif isinstance(value, complex):
        value = value != 0
    return apply_inplace(self, _const(FillBackward2, lambda old: value), overlap_ok=True)


class CopyBackwards(Node):
    __slots__ = ("src_dtype",)

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"

    formula = "self: zeros_like(grad); src: grad (cast to src's dtype)"

    def apply(self, grads):
        from .creation import zeros_like

        g = grads[0]
        gs = g.to(self.src_dtype) if self.src_dtype is not None and self.src_dtype.is_floating_point else g
        return (zeros_like(g), gs)


def copies_inference(input) -> bool:
    """Is a copy of ``input`` the copy of an inference tensor outside inference_mode (see inference_copy)?"""
    return isinstance(input, Tensor) and input._inference and not mode.inference


def inference_copy(input: Tensor, data: np.ndarray, dtype) -> Tensor:
    """clone()/to() of an inference tensor outside inference_mode (data: the copy's values, dtype: its dtype).

    PyTorch builds such a copy as ``empty(...).copy_(input)``: the new tensor is a normal one, so autograd
    records the copy (CopyBackwards, edges (None, input)) when input requires grad, although an op with only
    inference inputs records nothing."""
    if not dtype.is_floating_point:  # an integer or bool copy records no history (isDifferentiableType)
        return Tensor._from_data(data, dtype)
    dst = Tensor._from_data(np.empty_like(data), dtype)
    out, node = record(CopyBackwards, data, dtype, (dst, input))
    if node is not None:
        node.src_dtype = input._dtype
    return out


def copy_(self, src, non_blocking: bool = False):
    """Copy src's values into self (broadcasting src) (CopyBackwards)."""
    if self._zero:
        raise _zt.error(_zt.IMMUTABLE_COPY)
    if not isinstance(src, Tensor):
        from .creation import tensor as _tensor

        src = _tensor(src, dtype=self._dtype)

    def compute(old):
        try:
            data = np.broadcast_to(src._data, old._data.shape).astype(old._dtype.np)
        except ValueError:
            raise error_class("shape")(
                f"The size of tensor a ({old._data.shape[-1] if old._data.ndim else 1}) must match the size of "
                f"tensor b ({src._data.shape[-1] if src._data.ndim else 1}) at non-singleton dimension "
                f"{max(old._data.ndim - 1, 0)}") from None
        # PyTorch's copy_ records no history into a non-differentiable dtype (integers, bool), even from a
        # source that requires grad (its generated code masks requires_grad with isDifferentiableType)
        out, node = record(CopyBackwards, data, old._dtype, (old, src) if old._dtype.is_floating_point else ())
        if node is not None:
            node.src_dtype = src._dtype
        return out

    return apply_inplace(self, compute, src=src, autograd_inputs=_dispatches(src, False),
                         values=lambda a, b: b)


def _zero_at(g: Tensor, key) -> Tensor:
    """``g`` with +0.0 written at ``key`` (PyTorch: ``grad.index_put(indices, zeros_like(values))``, recorded as
    IndexPutBackward0 under create_graph; its own backward is the same masking).  A product by a 0/1 mask
    would give -0.0 where g is negative."""
    data = g._data.copy()
    data[key] = 0
    out, node = record(_ZeroAtBackward, data, g._dtype, (g,))
    if node is not None:
        node.key = key
    return out


_ZeroAtBackward = type("IndexPutBackward0", (Node,), {
    "__slots__": ("key",), "formula": "self: grad with zeros at indices",
    "apply": lambda self, grads: (_zero_at(grads[0], self.key),),
    "__doc__": "The backward of _zero_at (named as PyTorch names the index_put it records)."})


class IndexPutBackward0(Node):
    __slots__ = ("key", "vshape")
    formula = "self: grad with zeros at indices; values: grad[indices] summed to values' shape"

    def apply(self, grads):
        for i in range(len(self._saved or ())):
            self._unpack(i)  # the saved index tensors (version-checked)
        g = grads[0]
        gs = _zero_at(g, self.key)
        from .shape import getitem

        gv = getitem(g, _as_tensor_key(self.key))
        if gv._data.shape != self.vshape:
            gv = gv.sum_to_size(self.vshape) if self.vshape else gv.sum()
        return (gs, gv)


def _as_tensor_key(key):
    out = []
    for k in key:
        if isinstance(k, np.ndarray):
            out.append(Tensor._from_data(k, dt.bool_ if k.dtype == bool else dt.int64))
        else:
            out.append(k)
    return tuple(out)


def setitem(self, key, value):
    """self[key] = value: basic keys copy into a view (CopySlices on self); tensor/bool keys are index_put_."""
    from .shape import _normalize_key, _np_index

    if not isinstance(value, (Tensor, int, float, bool)):
        raise ArgumentTypeError(f"can't assign a {type(value).__name__} to a {self.type()}")
    if self._zero:
        raise _zt.error(_zt.IMMUTABLE_COPY)
    if isinstance(value, (int, float, bool)):
        from .creation import tensor as _tensor

        value = _tensor(value, dtype=self._dtype)
    if key is False:
        return None  # PyTorch: nothing at all (no version bump)
    if key is True:
        from .shape import unsqueeze

        _copy_to(unsqueeze(self, 0), value)
        return None
    nkey = _normalize_key(key)
    advanced = any(isinstance(k, (Tensor, list)) or isinstance(k, bool) for k in nkey)
    if not advanced:
        from .shape import _basic_index

        _copy_to(_basic_index(self, nkey, alias=False), value)
        return None
    np_key = tuple(_np_index(k) for k in nkey)
    value = _strip_leading_ones(value)

    def compute(old):
        _warn_expanded(self, "index_put_", "tensor[indices] = tensor")
        data = np.array(old._data, copy=True)
        try:
            data[np_key] = value._data
        except IndexError as e:
            raise ArgumentIndexError(str(e)) from None
        except (ValueError, TypeError):
            # numpy refuses some broadcasts index_put_ allows (a 2-d value into a boolean-mask result)
            res = data[np_key].shape
            try:
                data[np_key] = np.broadcast_to(value._data, res)
            except ValueError:
                raise error_class("runtime")(
                    f"shape mismatch: value tensor of shape {list(value._data.shape)} cannot be broadcast to "
                    f"indexing result of shape {list(res)}") from None
        out, node = record(IndexPutBackward0, data, old._dtype, (old, value))
        if node is not None:
            node.key = np_key
            node.vshape = value._data.shape
            # index_put_ saves its index tensors: changing one in place fails the backward, as in PyTorch
            node._save(*(saved(k) for k in nkey if isinstance(k, Tensor)))
        return out

    apply_inplace(self, compute, overlap_ok=True)
    return None


def _strip_leading_ones(value: Tensor) -> Tensor:
    """``value`` viewed without its leading size-1 dims (ViewBackward0), as PyTorch's
    at::indexing::set_item (slicePrefix1sSize) does before index_put_; unchanged if it has none."""
    shp = list(value._data.shape)
    if not shp or shp[0] != 1:
        return value
    from .shape import view

    while shp and shp[0] == 1:
        shp.pop(0)
    return view(value, *shp) if shp else view(value, ())


def _copy_to(dst: Tensor, src: Tensor) -> None:
    """PyTorch's at::indexing::copy_to (ATen/TensorIndexing.h), the write of ``x[basic key] = v``:
    equal shapes -> ``dst.copy_(src)`` (CopyBackwards); a 0-d ``src`` -> ``dst.fill_(src)``
    (FillBackward3); else ``src`` viewed without its leading 1-dims (ViewBackward0), expanded to
    ``dst``'s shape when it differs (ExpandBackward0), then copied.  ``dst`` is the tensor itself when
    every index was trivial (so no CopySlices), else a view of it."""
    if dst._data.shape == src._data.shape:
        copy_(dst, src)
        return
    if src._data.ndim == 0:
        fill_(dst, src)
        return
    from .shape import expand, view

    shp = list(src._data.shape)
    while shp and shp[0] == 1:
        shp.pop(0)
    src = view(src, *shp) if shp else view(src, ())
    if src._data.shape != dst._data.shape:
        src = expand(src, *dst._data.shape) if dst._data.ndim else expand(src, ())
    copy_(dst, src)


def _warn_expanded(t: Tensor, op: str, example: str) -> None:
    """PyTorch lets masked_fill_/index_put_ write an expanded tensor, with a deprecation warning from the kernel,
    so after autograd's checks (called from the ops' compute step, which apply_inplace runs after them)."""
    if _internal_overlap(t._data):
        from ..errors import warn

        warn("other", f"Use of {op} on expanded tensors is deprecated. Please clone() the tensor before performing "
                      f"this operation. This also applies to advanced indexing e.g. {example}")


def masked_fill_(self, mask, value):
    """Fill where ``mask`` in place (MaskedFillBackward0/1, as the out-of-place masked_fill)."""
    def compute(old):
        _warn_expanded(self, "masked_fill_", "tensor[mask] = scalar")
        return old.masked_fill(mask, value)

    return apply_inplace(self, compute, overlap_ok=True)


def requires_grad_op(self, requires_grad: bool = True):  # pragma: no cover - kept on Tensor
    return self.requires_grad_(requires_grad)


class NormalBackward0(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


class UniformBackward0(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


def _float_args(fn: str, **named) -> None:
    """PyTorch's argument parser for ``float`` parameters: a Python number or a tensor passes, anything else
    is its TypeError naming the parameter and its position (measured: ``uniform_(None)``, ``normal_(0, 'b')``)."""
    for pos, (name, v) in enumerate(named.items(), 1):
        if not isinstance(v, (int, float, Tensor)):
            raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be float, not {type(v).__name__}")


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with normal samples in place (PyTorch's CPU stream)."""
    from ..autograd import random as _random

    _float_args("normal_", mean=mean, std=std)

    def compute(old):
        data = np.array(old._data, copy=True)
        (generator or _random.default_generator).normal_(data, mean, std)
        out, _ = record(NormalBackward0, data, old._dtype, (old,))  # (zero gradient, as PyTorch's)
        return out

    return apply_inplace(self, compute)


def uniform_(self, a=0.0, b=1.0, *, generator=None):
    """Fill with uniform samples in [a, b) in place (PyTorch's CPU stream)."""
    from ..autograd import random as _random

    _float_args("uniform_", **{"from": a, "to": b})

    def compute(old):
        data = np.array(old._data, copy=True)
        (generator or _random.default_generator).uniform_(data, a, b)
        out, _ = record(UniformBackward0, data, old._dtype, (old,))
        return out

    return apply_inplace(self, compute)


class RandomBackward0(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


class RandomBackward1(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


class RandomBackward2(ZeroBackward0):
    __slots__ = ()
    formula = "self: zeros_like(grad)"


def random_(self, *args, generator=None, **kwargs):
    """Tensor.random_([from,] to) / random_(): integers drawn as torch.randint / PyTorch's full-range
    ``uniform_int_distribution``, written in the tensor's dtype (RandomBackward0 for (from, to), 1 for (to), 2
    for none: zero gradients).  Raises runtime for from >= to; TypeError for other arguments."""
    from ..autograd import random as _random

    if set(kwargs) - {"from", "to"}:
        raise ArgumentTypeError(f"random_() got an unexpected keyword argument '{next(iter(set(kwargs) - {'from', 'to'}))}'")
    if "from" in kwargs:
        args = (kwargs["from"],) + args
    if "to" in kwargs:
        args = args + (kwargs["to"],)
    if len(args) > 2 or not all(isinstance(a, int) and not isinstance(a, bool) or a is None for a in args):
        raise ArgumentTypeError("random_() received an invalid combination of arguments - got "
                                f"({', '.join(type(a).__name__ for a in args)})")
    gen = generator or _random.default_generator
    if len(args) == 2 and args[1] is not None:
        frm, to, cls = args[0], args[1], RandomBackward0
    elif len(args) == 1:
        frm, to, cls = 0, args[0], RandomBackward1
    else:
        frm, to, cls = None, None, RandomBackward2

    def compute(old):
        if to is None:
            data = gen.random_full(old._data.shape, old._dtype.name)
        else:
            data = gen.randint(frm, to, old._data.shape, old._dtype.name)
        out, _ = record(cls, np.asarray(data, dtype=old._dtype.np), old._dtype, (old,))
        return out

    return apply_inplace(self, compute)


_S = None
register("random_", random_, "random", torch=(), nodes=("RandomBackward0", "RandomBackward1", "RandomBackward2"),
         formula="self: zeros_like(grad)")
register("add_", add_, "inplace", torch=(), methods=("add_", "__iadd__"), nodes=("AddBackward0",),
         formula="as add")
register("sub_", sub_, "inplace", torch=(), methods=("sub_", "subtract_", "__isub__"), nodes=("SubBackward0",),
         formula="as sub")
register("mul_", mul_, "inplace", torch=(), methods=("mul_", "multiply_", "__imul__"), nodes=("MulBackward0",),
         formula="as mul")
register("div_", div_, "inplace", torch=(), methods=("div_", "divide_", "__itruediv__"),
         nodes=("DivBackward0",), formula="as div")
register("pow_", pow_, "inplace", torch=(), methods=("pow_", "__ipow__"), nodes=("PowBackward0",),
         formula="as pow")
register("clamp_", clamp_, "inplace", torch=(), methods=("clamp_", "clip_"), nodes=("ClampBackward1",),
         formula="as clamp")
register("clamp_min_", clamp_min_, "inplace", torch=(), nodes=("ClampMinBackward0",), formula="as clamp_min")
register("clamp_max_", clamp_max_, "inplace", torch=(), nodes=("ClampMaxBackward0",), formula="as clamp_max")
register("zero_", zero_, "inplace", torch=(), nodes=("ZeroBackward0",), formula=ZeroBackward0.formula)
register("fill_", fill_, "inplace", torch=(), nodes=("FillBackward2", "FillBackward3"),
         formula=FillBackward2.formula)
register("copy_", copy_, "inplace", torch=(), nodes=("CopyBackwards",), formula=CopyBackwards.formula)
register("setitem", setitem, "inplace", torch=(), methods=("__setitem__",),
         nodes=("CopySlices", "IndexPutBackward0"), formula=CopySlices.formula)
register("masked_fill_", masked_fill_, "inplace", torch=(), nodes=("IndexPutBackward0",))
register("normal_", normal_, "random", torch=())
register("uniform_", uniform_, "random", torch=())
#: PyTorch's torch.X_ functions (dir(torch) in 2.13) among gradcli's in-place forms
TORCH_INPLACE = frozenset({
    "abs_", "acos_", "arccos_", "arcsin_", "arctan_", "asin_", "atan_", "ceil_", "clamp_", "clamp_max_",
    "clamp_min_", "clip_", "cos_", "cosh_", "erf_", "exp2_", "exp_", "expm1_", "fill_", "floor_", "frac_",
    "log10_", "log1p_", "log2_", "log_", "neg_", "negative_", "reciprocal_", "relu_", "round_", "rsqrt_",
    "sigmoid_", "sin_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_", "zero_", "nan_to_num_"})
#: the torch.X_ functions whose binding takes only ``input`` (round_ and nan_to_num_ take more)
TORCH_UNARY_INPLACE = TORCH_INPLACE - {"round_", "nan_to_num_", "clamp_", "clamp_max_", "clamp_min_", "clip_",
                                       "fill_"}
#: method name -> the out-of-place op it writes (aliases share PyTorch's node: absolute_ is AbsBackward0)
_UNARY_INPLACE = {n: n for n in (
    "neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "reciprocal", "sign", "floor",
    "ceil", "round", "trunc", "square", "rsqrt", "expm1", "log1p", "frac", "acos", "asin", "atan", "cosh", "sinh",
    "tan", "erf", "exp2", "log10", "log2", "sgn", "nan_to_num")}
_UNARY_INPLACE.update({"absolute": "abs", "arccos": "acos", "arcsin": "asin", "arctan": "atan", "negative": "neg"})
for _n, _base in _UNARY_INPLACE.items():
    register(_n + "_", _unary_inplace(_base, _n + "_"), "inplace",
             torch=(_n + "_",) if _n + "_" in TORCH_INPLACE else (),
             formula=f"as {_base}")
    if _n + "_" in TORCH_INPLACE:
        REGISTRY[_n + "_"].extra["torch_fn"] = torch_inplace(_n + "_", _n + "_" in TORCH_UNARY_INPLACE)
for _n, _base in {"atan2": "atan2", "arctan2": "atan2", "hypot": "hypot", "remainder": "remainder",
                  "true_divide": "true_divide", "floor_divide": "floor_divide", "lerp": "lerp"}.items():
    register(_n + "_", _binary_inplace(_base), "inplace", torch=(), formula=f"as {_base}")
for _n in ("cumsum", "cumprod"):
    register(_n + "_", _unary_inplace(_n), "inplace", torch=(), formula=f"as {_n}")
for _n in ("eq", "ne", "lt", "le", "gt", "ge"):
    register(_n + "_", _cmp_inplace(_n), "inplace", torch=(), formula="self: zeros_like(self)")
for _n in ("clamp_", "clamp_min_", "clamp_max_", "zero_", "fill_"):  # (registered above without a torch form)
    REGISTRY[_n].torch = REGISTRY[_n].torch + (_n,) + (("clip_",) if _n == "clamp_" else ())
    REGISTRY[_n].extra["torch_fn"] = torch_inplace(_n, _n in TORCH_UNARY_INPLACE)


def _logical_inplace(name: str):
    """Tensor.logical_X_(other): the logical op's result cast to the tensor's dtype and written into it.

    Not differentiable, so not recorded: PyTorch bumps the version (a saved copy then fails the backward) but
    raises no leaf_inplace and leaves grad_fn as it was.  Raises shape when the result would not fit."""
    from . import elementwise as _ew

    op = getattr(_ew, name)

    def method(self, *args, **kwargs):
        from ..autograd.grad_mode import no_grad

        # PyTorch's argument parser, message for message (a wrong call is a TypeError, kind type)
        if name == "logical_not" and kwargs:
            raise ArgumentTypeError("TensorBase.logical_not_() takes no keyword arguments")
        if name == "logical_not" and args:
            raise ArgumentTypeError(f"TensorBase.logical_not_() takes no arguments ({len(args)} given)")
        positional_other = bool(args)
        if "other" in kwargs and not args:
            args = (kwargs.pop("other"),)
        if kwargs and args:
            raise ArgumentTypeError(f"{name}_() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if name != "logical_not" and not args:
            raise ArgumentTypeError(f'{name}_() missing 1 required positional arguments: "other"')
        if name != "logical_not" and len(args) > 1:
            raise ArgumentTypeError(f"{name}_() takes 1 positional argument but {len(args)} were given")
        if name != "logical_not" and not isinstance(args[0], Tensor):
            where = "" if positional_other is False else " (position 1)"
            raise ArgumentTypeError(f"{name}_(): argument 'other'{where} must be Tensor, not "
                                    f"{getattr(type(args[0]), '_gradcli_type_name', type(args[0]).__name__)}")

        def compute(old):
            with no_grad():
                return op(old.detach(), *[a.detach() if isinstance(a, Tensor) else a for a in args])

        return apply_inplace(self, compute, check=False)

    method.__name__ = name + "_"
    method.__doc__ = _logical_inplace.__doc__.replace("X", name[len("logical_"):])
    return method


for _n in ("logical_and", "logical_or", "logical_xor", "logical_not"):
    register(_n + "_", _logical_inplace(_n), "inplace", torch=(), formula="not differentiable")
