"""Custom autograd Functions: ``torch.autograd.Function``, its ``ctx``, ``once_differentiable``.

Follows ``torch/autograd/function.py`` and ``torch/csrc/autograd/python_function.cpp``
(``THPFunction_apply``, ``_wrap_outputs``, ``_save_variables``, ``PyNode::apply``) and
``custom_function.cpp`` as PyTorch 2.13 behaves (each rule below was checked against it):

* every subclass ``Foo`` gets a backward-node class ``FooBackward`` (a :class:`Node`
  subclass, module ``torch.autograd.function``), and **the ctx is that node**: the
  object ``forward(ctx, ...)`` receives is the very ``y.grad_fn`` of its outputs, so
  ``ctx.foo = 1`` in forward is readable as ``y.grad_fn.foo``.  It prints as
  ``<torch.autograd.function.FooBackward object>``; ``name()`` is ``'FooBackward'``;
* ``Foo.apply(*args)`` runs ``forward`` under ``no_grad`` (also without any input
  requiring grad); when grad mode is on and a tensor input requires grad, the
  tensor outputs get ``grad_fn = FooBackward`` (``output_nr`` = position in the
  returned tuple).  ``next_functions`` has one edge per *tensor* input (non-tensor
  inputs have none; a tensor input that needs no grad gets ``(None, 0)``);
  ``ctx.needs_input_grad`` has one flag per input;
* outputs: an input returned unchanged becomes a view of it (``view_as``); an input
  modified in place must be passed to ``ctx.mark_dirty`` (and returned) and keeps
  its identity with the new history; ``mark_non_differentiable`` outputs and
  integer outputs do not require grad;
* ``ctx.save_for_backward(*tensors)`` is processed after forward (saving a
  non-tensor other than None is a TypeError); ``ctx.saved_tensors`` is ``()``
  inside forward, version-checked afterwards, and raises ``second_backward``
  once a backward without ``retain_graph`` released the node (even when nothing
  was saved, like PyTorch);
* backward: grads of unused tensor outputs are zeros of the output's shape and
  dtype (``set_materialize_grads(False)`` passes None), None for non-tensor
  outputs; the user's ``backward(ctx, *grads)`` runs with grad mode =
  ``create_graph``; its result (a tuple, or one value) is checked as PyTorch does:
  count ("function FooBackward returned an incorrect number of gradients
  (expected 2, got 1)", trailing extra Nones allowed), non-None for a non-tensor
  input, non-tensor values ("expected Variable or None (got int)"), and shapes
  ("Function FooBackward returned an invalid gradient at index 0 - got [3] but
  expected shape compatible with [2]"; a gradient the input's shape can be
  broadcast to is summed back; the index counts tensor inputs); dtypes are cast;
* exceptions raised by the user's forward/backward propagate unchanged.

The exposure protocol for ``ctx`` (docs/ARCHITECTURE.md): the node class sets
``_gradcli_dynamic = True`` and ``_gradcli_settable = {"*"}`` -- any non-``_`` name can
be set -- and ``_gradcli_public`` is computed per instance: the ctx API names plus every
non-``_`` attribute set so far.  ``saved_tensors``, ``next_functions`` and
``metadata`` are read-only (PyTorch: "attribute ... is not writable").
:func:`make_function_class` builds a Function subclass for the interpreter's
``class NAME(torch.autograd.Function)``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import ArgumentTypeError, error_class, warn
from . import grad_mode
from . import graph
from .graph import Node, SavedTensor, accumulate_grad_node, collect_edge
from .graph import source_position as _pos
from .forward_ad import state as _fwd
from .tensor import Tensor

__all__ = [
    "BackwardCFunction",
    "Function",
    "FunctionMeta",
    "InplaceFunction",
    "make_function_class",
    "once_differentiable",
]

_mode = grad_mode.state

_SECOND_BACKWARD_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward."
)

_CTX_API = frozenset({
    "save_for_backward", "saved_tensors", "needs_input_grad", "mark_dirty", "mark_non_differentiable",
    "set_materialize_grads", "saved_variables", "save_for_forward",
})
# read-only as in PyTorch; plus ``apply`` and ``num_outputs``, which gradcli's engine reads on the node
# (a file replacing them would feed the engine values it never checks)
_READ_ONLY = frozenset({"saved_tensors", "next_functions", "metadata", "saved_variables", "apply", "num_outputs"})


def _runtime(msg: str, hint: str | None = None, torch_type: type | None = None,
             torch_message: str | None = None):
    return error_class("runtime")(msg, hint, torch_type=torch_type, torch_message=torch_message)


class BackwardCFunction(Node):
    """The backward node of a custom Function, which is also its ``ctx`` (torch.autograd.function.BackwardCFunction).

    Subclassed per Function (``FooBackward``); instances have a ``__dict__`` for the
    user's attributes.  Internal state uses ``_`` names, out of the user's reach.
    """

    _gradcli_dynamic = True
    _gradcli_settable = frozenset({"*"})
    _forward_cls: Any = None
    _call_with_undefined = True  # the engine runs it even when no gradient arrived, as PyTorch does
    _unpacks_up_front = False  # ctx.saved_tensors unpacks (and runs unpack hooks) at each read

    def __init__(self) -> None:
        super().__init__()
        d = self.__dict__
        d["_processed"] = False  # save_for_backward processed (after forward)
        d["_released"] = False  # released by a backward without retain_graph
        d["_materialize"] = True
        d["_num_inputs"] = 0
        d["_input_is_tensor"] = ()
        d["_out_meta"] = ()
        d["num_outputs"] = 1
        object.__setattr__(self, "next_functions", ())
        self._meta = ()

    # --- exposure protocol -------------------------------------------------------------
    @property
    def _gradcli_public(self) -> frozenset:  # type: ignore[override]
        return Node._gradcli_public | _CTX_API | frozenset(k for k in self.__dict__ if not k.startswith("_"))

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _READ_ONLY:  # gradcli's own code sets next_functions with object.__setattr__
            raise _runtime(f"attribute '{name}' of 'torch._C._FunctionBase' objects is not writable")
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:  # only called when normal lookup fails
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object>"

    # --- the ctx API (torch.autograd.function.FunctionCtx) -------------------------------
    def save_for_backward(self, *tensors) -> None:
        """Save tensors (or None) for backward; processed (and type-checked) when forward returns."""
        self.__dict__["to_save"] = tensors

    def save_for_forward(self, *tensors) -> None:
        """Save tensors for ``jvp`` (forward-mode AD): there ``ctx.saved_tensors`` returns them."""
        self.__dict__["_saved_fw"] = tensors

    def mark_dirty(self, *args) -> None:
        """Declare inputs that forward modified in place (they must be returned)."""
        self.__dict__["dirty_tensors"] = args

    def mark_non_differentiable(self, *args) -> None:
        """Declare outputs that are not differentiable (they will not require grad)."""
        self.__dict__["non_differentiable"] = args

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        if not isinstance(value, bool):
            raise ArgumentTypeError(f"set_materialize_grads(): argument 'value' must be bool, not {type(value).__name__}")
        self.__dict__["_materialize"] = value

    @property
    def saved_tensors(self) -> tuple:
        """The saved tensors, unpacked with their version check (``()`` during forward)."""
        if self.__dict__.get("_in_jvp"):  # jvp reads the primals saved by save_for_forward
            from .forward_ad import primal_of

            return tuple(primal_of(t) for t in (self.__dict__.get("_saved_fw") or ()))
        if self.__dict__["_released"]:
            err = error_class("second_backward")(_SECOND_BACKWARD_MSG)
            err.facts = {"node": self, "index": 0}  # read by app/related.py
            raise err
        if not self.__dict__["_processed"]:
            return ()
        return tuple(self._unpack(i) for i in range(len(self._saved)))

    saved_variables = saved_tensors

    # --- engine side -------------------------------------------------------------------------
    def _release(self) -> None:
        self.__dict__["_released"] = True
        if self._saved:
            for s in self._saved:
                if isinstance(s, SavedTensor):
                    s.release()
        self._freed = _pos.loc or True  # the backward call that released it (app/related.py)

    def _unpack(self, i: int):
        if self._freed or self.__dict__["_released"]:
            err = error_class("second_backward")(_SECOND_BACKWARD_MSG)
            err.facts = {"node": self, "index": i}  # read by app/related.py
            raise err
        s = self._saved[i]
        if isinstance(s, SavedTensor):
            return s.unpack(self, saved_for=True)  # THPFunction_saved_tensors passes the node
        return s

    def _user_backward(self) -> Callable:
        cls = self._forward_cls
        backward_fn = cls.backward
        vjp_fn = cls.vjp
        has_backward = backward_fn is not Function.backward
        has_vjp = vjp_fn is not Function.vjp
        if has_backward and has_vjp:
            raise _runtime("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You should "
                           "only implement one of them.")
        if has_vjp:
            return vjp_fn
        return backward_fn

    def apply(self, grads: list) -> tuple:
        """Run the user's backward on the output grads; check and shape its result (PyNode::apply)."""
        d = self.__dict__
        name = type(self).__name__
        args = list(grads)
        if d["_materialize"]:
            for i, meta in enumerate(d["_out_meta"]):
                if i < len(args) and args[i] is None and meta is not None:
                    shape, dtype = meta
                    args[i] = Tensor._from_data(np.zeros(shape, dtype=dtype.np), dtype)
        fn = self._user_backward()
        result = fn(self, *args)
        if type(result) is not tuple:
            result = (result,)
        n_in = d["_num_inputs"]
        if len(result) > n_in and all(r is None for r in result[n_in:]):
            result = result[:n_in]
        if len(result) != n_in:
            raise _runtime(f"function {name} returned an incorrect number of gradients (expected {n_in}, "
                           f"got {len(result)})")
        outs: list = []
        is_tensor = d["_input_is_tensor"]
        for i, g in enumerate(result):
            if not is_tensor[i]:
                if g is not None:
                    raise _runtime(f"function {name} returned a gradient different than None at position {i + 1}, "
                                   "but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise _runtime(f"expected Variable or None (got {_py_type_name(g)})")
            outs.append(g)
        for idx, g in enumerate(outs):
            if g is None:
                continue
            if self.next_functions[idx][0] is None:
                outs[idx] = None  # PyTorch's validate_outputs skips edges of inputs that need no grad
                continue
            shape, dtype = self._meta[idx]
            if g._data.shape != shape:
                if not _expandable(shape, g._data.shape):
                    raise _runtime(f"Function {name} returned an invalid gradient at index {idx} - got "
                                   f"{list(g._data.shape)} but expected shape compatible with {list(shape)}")
                g = g.sum_to_size(shape)
            if g._dtype is not dtype:
                g = g.to(dtype)
            outs[idx] = g
        return tuple(outs)


def _py_type_name(v: Any) -> str:
    name = getattr(type(v), "_gradcli_type_name", None)
    return name if isinstance(name, str) else type(v).__name__


def _expandable(shape: tuple, desired: tuple) -> bool:
    """Can a tensor of ``shape`` be broadcast to ``desired`` (c10::is_expandable_to)?"""
    if len(shape) > len(desired):
        return False
    for a, b in zip(reversed(shape), reversed(desired)):
        if a != b and a != 1:
            return False
    return True


class FunctionMeta(type):
    """Metaclass: gives each Function subclass its backward-node class ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs) -> None:
        backward_cls = type(name + "Backward", (BackwardCFunction,),
                            {"_forward_cls": cls, "__module__": "torch.autograd.function"})
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)

    def __repr__(cls) -> str:
        module = cls.__dict__.get("_gradcli_module", "__main__")
        return f"<class '{module}.{cls.__name__}'>"


class Function(metaclass=FunctionMeta):
    """Base class of custom autograd Functions (torch.autograd.Function).

    Subclasses define ``forward(ctx, *args)`` (or ``forward(*args)`` plus
    ``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grad_outputs)``
    as static methods, and are used through ``Foo.apply(*args)``.
    """

    _gradcli_public = frozenset({"apply", "forward", "backward", "setup_context", "vjp", "jvp"})
    _gradcli_module = "torch.autograd.function"

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise _runtime("You must implement the forward function for custom autograd.Function.",
                       torch_type=NotImplementedError)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        raise _runtime("setup_context is not implemented.", torch_type=NotImplementedError)

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise _runtime("You must implement either the backward or vjp method for your custom autograd.Function "
                       "to use it with backward mode AD.", torch_type=NotImplementedError)

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise error_class("runtime")("You must implement the jvp function for custom autograd.Function to use it "
                                     "with forward mode AD.", torch_type=NotImplementedError)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise _runtime("Legacy autograd function with non-static forward method is deprecated. Please use "
                       "new-style autograd function with static forward method. (Example: "
                       "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward and connect its tensor outputs to a ``<Name>Backward`` node (Function.apply)."""
        has_setup = cls.setup_context is not Function.setup_context
        if has_setup:
            args, kwargs = _bind_default_args(cls.forward, args, kwargs)
        return _apply(cls, tuple(args), kwargs, has_setup)


class InplaceFunction(Function):
    """Kept for backward compatibility (torch.autograd.function.InplaceFunction)."""

    def __init__(self, inplace: bool = False) -> None:
        self.inplace = inplace


def _bind_default_args(func: Callable, args: tuple, kwargs: dict) -> tuple:
    """PyTorch's bind_default_args: positional args with defaults filled in, when the signature is known."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return args, kwargs
    bound = sig.bind(*args, **kwargs)  # TypeError for a wrong call, as in PyTorch
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _apply(cls: Any, args: tuple, kwargs: dict, has_setup: bool) -> Any:
    node = cls._backward_cls()
    d = node.__dict__
    is_tensor = tuple(isinstance(a, Tensor) for a in args)
    needs = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
    is_exec = _mode.enabled and any(needs)
    d["needs_input_grad"] = needs
    d["_num_inputs"] = len(args)
    d["_input_is_tensor"] = is_tensor
    tensors = [a for a in args if isinstance(a, Tensor)]
    if is_exec:
        object.__setattr__(node, "next_functions", tuple(collect_edge(t) for t in tensors))
        node._meta = tuple((t._data.shape, t._dtype) for t in tensors)
    prev = _mode.enabled
    _mode.enabled = False
    _fwd.busy += 1  # forward runs without forward-mode AD too: jvp gives the outputs' tangents
    try:
        if has_setup:
            outputs = cls.forward(*args, **kwargs)
            cls.setup_context(node, args, outputs)
        else:
            outputs = cls.forward(node, *args, **kwargs)
    finally:
        _mode.enabled = prev
        _fwd.busy -= 1
    result = _wrap_outputs(node, args, outputs, is_exec)
    if _fwd.level is not None and not _fwd.busy:
        from .forward_ad import function_tangents

        function_tangents(cls, node, args, result)
    return result


def _contains(items: Any, t: Any) -> bool:
    return any(x is t for x in (items or ()))


#: the ctx fields forward's ctx methods set, and the method that sets each (issue 20: a file setting one itself)
_CTX_FIELDS = {"to_save": "save_for_backward", "dirty_tensors": "mark_dirty",
               "non_differentiable": "mark_non_differentiable"}


def _check_ctx_fields(d: dict) -> None:
    """PyTorch's check of the ctx fields when forward returns: each of them, when set, is a tuple (a file that
    assigns ``ctx.to_save = 7`` gets PyTorch's RuntimeError, the field and its method named; it was an
    internal error)."""
    for name, method in _CTX_FIELDS.items():
        v = d.get(name)
        if v is not None and type(v) is not tuple:
            raise _runtime(
                f"ctx.{name} is expected to be a tuple but is {_py_type_name(v)}: it is set by "
                f"ctx.{method}(...), not assigned by the file",
                f"Call ctx.{method}(...) instead of assigning ctx.{name}.",
                torch_message=f"autograd internal error: {name} attribute is expected to be a tuple but is ")
    for name, torch_text in (("dirty_tensors", "mark_dirty can only accept variables, but argument "),
                             ("non_differentiable", "mark_non_differentiable only accepts variable arguments, "
                                                    "but got ")):
        for i, t in enumerate(d.get(name) or ()):
            if not isinstance(t, Tensor):
                raise _runtime(f"{_CTX_FIELDS[name]} can only accept tensors, but argument {i} is of type "
                               f"{_py_type_name(t)}", torch_message=torch_text)


def _wrap_outputs(node: BackwardCFunction, args: tuple, outputs: Any, is_exec: bool) -> Any:
    d = node.__dict__
    _check_ctx_fields(d)
    is_tuple = type(outputs) is tuple
    outs = outputs if is_tuple else (outputs,)
    dirty = d.get("dirty_tensors") or ()
    nondiff = d.get("non_differentiable") or ()
    inputs = [a for a in args if isinstance(a, Tensor)]
    for t in dirty:
        if not any(t is o for o in outs):
            raise _runtime("Some elements marked as dirty during the forward method were not returned as output. "
                           "The inputs that are modified inplace must all be outputs of the Function.")
        if not any(t is a for a in inputs):
            warn("other", "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
                          "been mutated should be passed to ctx.mark_dirty().")
    d["num_outputs"] = len(outs)
    result: list = []
    meta: list = []
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            result.append(o)
            meta.append(None)
            continue
        meta.append((o._data.shape, o._dtype))
        is_input = any(o is a for a in inputs)
        is_modified = _contains(dirty, o)
        differentiable = is_exec and not _contains(nondiff, o) and o._dtype.is_floating_point
        if is_modified:
            if is_exec and o._grad_fn is None and o._requires_grad:
                # PyTorch's wording differs from the usual leaf error ("has been used"): a plain RuntimeError
                raise _runtime("a leaf Variable that requires grad has been used in an in-place operation.",
                               "Do not modify a leaf that requires grad inside forward; clone() it first.")
            out = o
        elif is_input:
            out = _view_as_self(o)
        else:
            out = o
        if differentiable:
            out._grad_fn = node
            out._output_nr = i
            out._requires_grad = True
            if graph.value_sink is not None:
                graph.value_sink(out, node)
            if out._base is not None:
                # PyTorch's CreationMeta::IN_CUSTOM_FUNCTION: the view keeps the Function's node (set now, so
                # an in-place change made inside forward does not count) and may not be modified in place
                # later, nor read once its base was
                out._creation = "custom"
                out._view_version = out._version[0]
        elif is_exec and is_modified and out._grad_fn is not None:
            out._grad_fn = None
            out._requires_grad = False
        result.append(out)
    d["_out_meta"] = tuple(meta)
    if is_exec:
        _save_variables(node)
    else:
        d["_processed"] = True
        node._saved = tuple(t if isinstance(t, Tensor) else None for t in (d.get("to_save") or ()))
    for name in ("to_save", "dirty_tensors", "non_differentiable"):  # cleared as PyTorch does (no cycles)
        d.pop(name, None)
    return tuple(result) if is_tuple else result[0]


def _view_as_self(t: Tensor) -> Tensor:
    """An input returned as output becomes a view of it (PyTorch's view_as(self))."""
    from ..ops.shape import view_as

    prev = _mode.enabled
    _mode.enabled = False
    try:
        return view_as(t, t)
    finally:
        _mode.enabled = prev


def _save_variables(node: BackwardCFunction) -> None:
    d = node.__dict__
    saved: list = []
    for i, t in enumerate(d.get("to_save") or ()):
        if t is None:
            saved.append(None)
        elif not isinstance(t, Tensor):
            raise ArgumentTypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{_py_type_name(t)}")
        else:
            saved.append(SavedTensor(t, is_output=t._grad_fn is node))
    node._saved = tuple(saved)
    if graph.pack_hooks:
        graph.pack_saved(node._saved)
    d["_processed"] = True


# --- once_differentiable --------------------------------------------------------------------------


class DelayedErrorNode(Node):
    """PyTorch's DelayedError node (prints as ``Error``): raises when differentiated through."""

    _gradcli_public = Node._gradcli_public

    def __init__(self, msg: str, n: int) -> None:
        super().__init__()
        self.msg = msg
        self.num_outputs = n

    def name(self) -> str:
        return "torch::autograd::Error"

    def apply(self, grads: list) -> tuple:
        raise _runtime(self.msg)


Error = type("Error", (DelayedErrorNode,), {"__module__": __name__})


def once_differentiable(fn: Callable) -> Callable:
    """Decorator for a backward that is not itself differentiable (torch.autograd.function.once_differentiable).

    The backward runs under no_grad; when grad mode is on (create_graph) and an
    incoming gradient requires grad, its outputs get an ``Error`` node that
    raises "trying to differentiate twice a function that was marked with
    @once_differentiable" if differentiated.
    """

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        prev = _mode.enabled
        _mode.enabled = False
        try:
            outputs = fn(ctx, *args, **kwargs)
        finally:
            _mode.enabled = prev
        if not _mode.enabled:
            return outputs
        if not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        outs = outputs if type(outputs) is tuple else (outputs,)
        err = Error("trying to differentiate twice a function that was marked with @once_differentiable",
                    len(outs))
        edges: list = []
        metas: list = []
        wrapped: list = []
        for i, v in enumerate(outs):
            if not isinstance(v, Tensor):
                edges.append((None, 0))
                metas.append(None)
                wrapped.append(v)
                continue
            fake = v.detach()
            fake._requires_grad = True
            edges.append((accumulate_grad_node(fake), 0))
            metas.append((fake._data.shape, fake._dtype))
            out = Tensor._from_data(v._data, v._dtype)
            out._version = v._version
            out._grad_fn = err
            out._output_nr = i
            out._requires_grad = True
            wrapped.append(out)
        err.next_functions = tuple(edges)
        err._meta = tuple(metas)
        return tuple(wrapped) if len(wrapped) > 1 else wrapped[0]

    return wrapper


once_differentiable._gradcli_public = frozenset()  # type: ignore[attr-defined]  # usable as a decorator


# --- the interpreter's entry point ---------------------------------------------------------------


def make_function_class(name: str, methods: dict) -> type:
    """Build ``class NAME(torch.autograd.Function)`` from the user's static methods.

    methods: method name -> plain callable (forward(ctx, ...), backward(ctx, ...),
    optionally setup_context(ctx, inputs, output), vjp, or helpers).  Each becomes a
    staticmethod; every method name is readable on the class, plus ``apply``.
    """
    attrs: dict = {"__module__": "__main__", "_gradcli_module": "__main__"}
    for k, fn in methods.items():
        attrs[k] = staticmethod(fn)
    attrs["_gradcli_public"] = Function._gradcli_public | frozenset(k for k in methods if not k.startswith("_"))
    return FunctionMeta(name, (Function,), attrs)
