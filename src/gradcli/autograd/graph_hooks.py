"""``torch.autograd.graph``'s hooks: saved-tensor hooks and multi-grad hooks.

Follows ``torch/autograd/graph.py`` (PyTorch 2.13) and the C++ it calls
(``SavedVariable`` in ``saved_variable.cpp``, ``SavedTensorDefaultHooks``):

* :class:`saved_tensors_hooks` pushes a ``(pack_hook, unpack_hook)`` pair on the
  default-hooks stack for the ``with`` block; only the innermost pair is used.
  Each tensor a node saves is given to ``pack_hook`` (grad mode off) in the
  order PyTorch's generated code saves it (``Node._pack_order``), the node
  keeps what it returns instead of the tensor, and ``unpack_hook`` is called
  each time the saved tensor is unpacked -- once per node apply, up front, and
  at each ``ctx.saved_tensors`` read of a custom Function.  No version check is
  made for a hooked tensor (PyTorch cannot see through the hooks), so an
  in-place change after saving is no error.  Non-reentrant checkpoint is built
  on the same stack (autograd/checkpoint.py): a user's pair inside the
  checkpointed function wins over checkpoint's, one around it sees only the
  inputs checkpoint saves.
* :class:`save_on_cpu` is such a pair whose pack is ``tensor.cpu()`` (the
  tensor itself on CPU) and, with ``pin_memory=True``, a copy.
* :func:`disable_saved_tensors_hooks` makes entering any pair a runtime error
  with the given message.
* :class:`allow_mutation_on_saved_tensors` is a pair under which a saved tensor
  changed in place is no error: backward sees its value as saved.  PyTorch clones
  the tensor just before the first in-place write (a dispatch mode); here the pack
  keeps the tensor, its version and a copy of its data, and the unpack returns the
  tensor itself while its version and values are unchanged, else a tensor of the saved data --
  the same values and identities, without a hook on every in-place path.
* :func:`register_multi_grad_hook` (``mode="all"`` / ``"any"``) is PyTorch's
  Python code over tensor hooks, the graph task id and
  ``engine.will_execute_node``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from ..errors import error_class
from . import engine, graph
from .graph import UserHooks
from .tensor import Tensor

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
           "allow_mutation_on_saved_tensors"]


class saved_tensors_hooks:
    """Context manager setting pack/unpack hooks for the tensors saved inside it
    (torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)).

    pack_hook(tensor) -> object is called when an operation saves a tensor for backward; unpack_hook(object)
    -> Tensor when backward (or ``grad_fn._saved_*``, ``ctx.saved_tensors``) needs it.  Errors: entering
    inside disable_saved_tensors_hooks is a runtime error with its message; an unpack hook that returns no
    Tensor is a TypeError at unpack; a pack hook that changes its input in place is a runtime error.
    """
    __module__ = "torch.autograd.graph"  # printed as PyTorch's class

    _gradcli_public = frozenset({"pack_hook", "unpack_hook"})
    _gradcli_module = "torch.autograd.graph"

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if graph.hooks_disabled and graph.hooks_disabled[-1] is not None:
            raise error_class("runtime")(graph.hooks_disabled[-1])
        graph.pack_hooks.append(UserHooks(self.pack_hook, self.unpack_hook))

    def __exit__(self, *args: object) -> None:
        if graph.pack_hooks:  # _pop_saved_tensors_default_hooks (checkpoint pops its own pairs itself)
            graph.pack_hooks.pop()

    def __repr__(self) -> str:
        return f"<torch.autograd.graph.{type(self).__name__} object>"


class save_on_cpu(saved_tensors_hooks):
    """torch.autograd.graph.save_on_cpu(pin_memory=False, device_type='cuda'): saved tensors are kept on the CPU.

    On a CPU-only build the pack is ``tensor.cpu()``, which is the tensor itself (so only the version check
    goes, as with any hooks); ``pin_memory=True`` packs a copy (PyTorch copies into a new, unpinnable, tensor).
    """
    __module__ = "torch.autograd.graph"  # printed as PyTorch's class

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Tensor) -> tuple:
            if not pin_memory:
                return (tensor.device, tensor)
            from ..ops.creation import empty_like
            from ..ops.inplace import copy_

            packed = empty_like(tensor)
            copy_(packed, tensor)
            return (tensor.device, packed)

        def unpack_from_cpu(packed: tuple) -> Tensor:
            return packed[1]

        super().__init__(pack_to_cpu, unpack_from_cpu)


class _AllowMutationOnSavedContext:
    """What ``with allow_mutation_on_saved_tensors() as ctx`` binds (PyTorch's state object; opaque here)."""

    __slots__ = ()
    _gradcli_public = frozenset()

    def __repr__(self) -> str:
        return "<torch.autograd.graph._AllowMutationOnSavedContext object>"


class allow_mutation_on_saved_tensors(saved_tensors_hooks):
    """torch.autograd.graph.allow_mutation_on_saved_tensors(): tensors saved for backward inside the block may be
    changed in place; backward uses their values as saved.  Nesting is PyTorch's RuntimeError."""

    def __init__(self) -> None:
        def pack(tensor: Tensor) -> tuple:
            return (tensor, tensor._version[0], tensor._data.copy())

        def unpack(packed: tuple) -> Tensor:
            tensor, version, data = packed
            if tensor._version[0] == version and np.array_equal(tensor._data, data, equal_nan=True):
                return tensor  # (a write through .data, with its own version counter, changes the values)
            return Tensor._from_data(data, tensor._dtype)  # PyTorch's clone made before the first write

        super().__init__(pack, unpack)

    def __enter__(self) -> _AllowMutationOnSavedContext:  # type: ignore[override]
        if any(getattr(h.pack, "__qualname__", "").startswith("allow_mutation_on_saved_tensors.")
               for h in graph.pack_hooks if isinstance(h, UserHooks)):
            raise error_class("runtime")("allow_mutation_on_saved_tensors contexts cannot be nested")
        super().__enter__()
        return _AllowMutationOnSavedContext()


class disable_saved_tensors_hooks:
    """torch.autograd.graph.disable_saved_tensors_hooks(error_message): inside it, entering saved_tensors_hooks
    (or save_on_cpu) raises a runtime error with ``error_message``.  Nested blocks restore the outer message."""

    _gradcli_public = frozenset()
    _gradcli_module = "torch.autograd.graph"

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        if not isinstance(self.error_message, str):
            # pybind11's refusal of torch._C._autograd._saved_tensors_hooks_disable, which __enter__ calls
            from ..errors import ArgumentTypeError

            raise ArgumentTypeError(
                "_saved_tensors_hooks_disable(): incompatible function arguments. The following argument types are "
                "supported:\n    1. (error_message: str, fail_if_non_empty: bool = True) -> None\n\n"
                f"Invoked with: {self.error_message!r}")
        graph.hooks_disabled.append(self.error_message)

    def __exit__(self, *args: object) -> None:
        if graph.hooks_disabled:
            graph.hooks_disabled.pop()

    def __call__(self, fn: Callable) -> Callable:  # a contextlib.contextmanager object is also a decorator
        outer = self

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with disable_saved_tensors_hooks(outer.error_message):
                return fn(*args, **kwargs)

        return wrapped


def _grad_fn_or_grad_acc(t: Tensor):
    """The node a tensor's gradient flows into: its grad_fn, or a leaf's AccumulateGrad
    (torch.autograd.graph._get_grad_fn_or_grad_acc)."""
    if t.requires_grad and t.grad_fn is None:
        return graph.accumulate_grad_node(t)
    return t.grad_fn


class _MultiHandle:
    """The handle of register_multi_grad_hook: ``remove()`` removes every tensor hook it registered."""

    __slots__ = ("handles",)
    _gradcli_public = frozenset({"remove"})

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        """Remove the hooks (a second call is a no-op)."""
        for h in self.handles:
            h.remove()

    def __repr__(self) -> str:
        return "<torch.autograd.graph._MultiHandle object>"


def register_multi_grad_hook(tensors, fn: Callable, *, mode: str = "all") -> _MultiHandle:
    """torch.autograd.graph.register_multi_grad_hook(tensors, fn, mode='all'|'any').

    ``"all"``: after the gradient of every tensor of ``tensors`` that the running backward computes has been
    computed, ``fn(grads)`` is called with a list (None for the tensors not computed).  ``"any"``: ``fn(grad)``
    with the first gradient computed, once per backward.  Returns a handle with ``remove()``.  Errors:
    ValueError (kind runtime) for another mode, the errors of
    Tensor.register_hook (a tensor that does not require grad, with ``"all"``).
    """
    supported = ("all", "any")
    if mode not in supported:
        raise error_class("runtime")(f"Expects mode to be one of {supported} but got {mode}", torch_type=ValueError)
    tensors = list(tensors)
    if mode == "all":
        count: dict = {}
        buffer: dict = {}
        nb_calls: list = [None]
        grad_fns = [_grad_fn_or_grad_acc(t) for t in tensors]
        n = len(tensors)

        def get_inner_hook(idx: int) -> Callable:
            def inner_hook(grad: Optional[Tensor]) -> None:
                gid = engine.current_graph_task_id()
                count[gid] = count.get(gid, 0)
                buffer[gid] = buffer.get(gid, [None] * n)
                curr, count[gid] = count[gid], count[gid] + 1
                if curr == 0:
                    nb_calls[0] = sum(1 for f in grad_fns if f is not None and engine.will_execute_node(f))
                buffer[gid][idx] = grad
                if curr == nb_calls[0] - 1:
                    fn(buffer[gid])
                    del count[gid]
                    del buffer[gid]

            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran: dict = {}

        def wrapped_fn(grad: Optional[Tensor]) -> None:
            gid = engine.current_graph_task_id()
            prev = ran.get(gid, False)
            ran[gid] = True
            if prev:
                return
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)
