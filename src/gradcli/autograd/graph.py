"""Graph objects: Node (a ``grad_fn``), AccumulateGrad, SavedTensor.

Follows PyTorch's ``torch/csrc/autograd/function.h`` / ``saved_variable.cpp``:

* a :class:`Node` has ``next_functions`` — one ``(node | None, output_nr)``
  edge per differentiable input — a sequence number (later nodes run first
  among the ready ones), the input metadata (shape, dtype) used to undo
  broadcasting and cast gradients centrally, and its saved tensors;
* a :class:`SavedTensor` records the version of the tensor it saved; unpacking
  it after the node was released raises ``second_backward``, and after an
  in-place change raises ``inplace_modified``, at backward time as PyTorch does;
* :class:`AccumulateGrad` is the only node that writes ``.grad``.

No node holds a strong reference to a tensor whose ``grad_fn`` is that node
(outputs are saved as data + version box), so a graph has no reference cycle
per node and is freed by reference counting alone.
"""

from __future__ import annotations

import collections
import itertools
import weakref
from typing import Optional

from ..errors import GradcliError, error_class, torch_node_name, torch_text
from .fwstate import state as _fw_state

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "RemovableHandle", "source_position", "pack_saved"]

_seq = itertools.count()


class Position:
    """Where the interpreter is in the user's file: ``loc`` = (line, col) or None.

    The language layer stores it (one attribute per statement); nodes read it
    at creation so errors and the graph view can name the line that built them.
    """

    __slots__ = ("loc",)

    def __init__(self) -> None:
        self.loc: Optional[tuple] = None

    @property
    def line(self) -> Optional[int]:
        return None if self.loc is None else self.loc[0]

    @property
    def col(self) -> Optional[int]:
        return None if self.loc is None else self.loc[1]


source_position = Position()

#: in-place version bumps, newest last: (version box, version after the bump, (line, col) | None); read by the
#: explainers (app/related.py) to name the line that changed a saved tensor.  Bounded; cleared by engine.reset().
inplace_log: "collections.deque" = collections.deque(maxlen=4096)

#: ``fn(result, node)`` for each result a custom Function gives a grad_fn, or None (``graph --values`` only:
#: autograd/values.py; the ops' results are reported by ops/_core.value_sink)
value_sink = None


class RemovableHandle:
    """Returned by register_hook; ``remove()`` unregisters the hook (torch.utils.hooks.RemovableHandle)."""

    __slots__ = ("_hooks", "_hook")
    _gradcli_public = frozenset({"remove"})

    def __init__(self, hooks: list, hook) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        """Unregister the hook; removing twice is a no-op."""
        for i, h in enumerate(self._hooks):
            if h is self._hook:
                del self._hooks[i]
                break

    def __repr__(self) -> str:
        return "<torch.utils.hooks.RemovableHandle object>"


class Node:
    """A backward function (``grad_fn``): PyTorch's autograd Node.

    Subclasses set ``apply(grads) -> tuple`` mapping the list of gradients of
    the node's outputs (one per output; None where no gradient arrived) to one
    gradient per edge in ``next_functions`` (None = no gradient).  Rules are
    written with gradcli's differentiable ops, so ``create_graph=True`` works.
    """

    __slots__ = ("next_functions", "_seq", "_meta", "_saved", "_freed", "_loc",
                 "_pre_hooks", "_retained", "_needs", "_hooks", "_checkpointed", "_metadata", "__weakref__")
    _gradcli_public = frozenset({"next_functions", "name", "register_hook", "register_prehook", "metadata"})
    num_outputs = 1
    formula = ""

    def __init__(self) -> None:
        self._seq = next(_seq)
        self._saved: tuple = ()
        self._freed = False
        self._loc = source_position.loc
        self._pre_hooks: Optional[dict] = None  # output_nr -> [hook]
        self._retained: Optional[dict] = None  # output_nr -> weakref(tensor)
        self._hooks: Optional[list] = None
        self._needs: tuple = ()
        self._checkpointed = False  # created inside a non-reentrant checkpoint: saved tensors dropped

    @property
    def _line(self) -> Optional[int]:
        return None if self._loc is None else self._loc[0]

    @property
    def _col(self) -> Optional[int]:
        return None if self._loc is None else self._loc[1]

    # --- PyTorch-visible API ---------------------------------------------------
    def name(self) -> str:
        """The node's class name, e.g. 'MulBackward0' (torch.autograd.graph.Node.name)."""
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        """The node's own dict for user data (torch.autograd.graph.Node.metadata): empty at first, kept."""
        try:
            m = self._metadata
        except AttributeError:
            m = None
        if m is None:
            m = self._metadata = {}
        return m

    def _gradcli_private(self, name: str):
        """The ``_saved_*`` / ``_raw_saved_*`` attributes PyTorch 2.13 gives this node class (saved_fields.py)."""
        from .saved_fields import read

        return read(self, name)

    def register_hook(self, fn) -> RemovableHandle:
        """Hook ``fn(grad_inputs, grad_outputs)`` run after this node executes."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """Hook ``fn(grad_outputs)`` run before this node executes (may return replacements)."""
        return self._add_pre_hook(-1, fn)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object>"

    # --- engine internals -----------------------------------------------------------
    def _add_pre_hook(self, output_nr: int, fn) -> RemovableHandle:
        if self._pre_hooks is None:
            self._pre_hooks = {}
        hooks = self._pre_hooks.setdefault(output_nr, [])
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    #: PyTorch's order of this node's saved variables (indices into what ``_save`` is given), where it is not
    #: the order of ``_save``'s arguments: the generated code saves (and its apply unpacks) the inputs in the
    #: order the derivative formulas name them, then the outputs (MulBackward0: other, then self).  Only seen
    #: by saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks), which are called in this order.
    _pack_order: Optional[tuple] = None

    def _save(self, *items) -> None:
        self._saved = items
        if pack_hooks:
            if _fw_state.pending:  # a dual result's tangent reads these as saved, not through the hooks
                from .forward_ad import keep_raw

                keep_raw(self, items)
            pack_saved(items, self._pack_order)

    #: a generated node's apply unpacks every saved tensor before it computes; a custom Function's unpacks
    #: them when ``ctx.saved_tensors`` is read
    _unpacks_up_front = True

    def _unpack_all(self) -> None:
        """Unpack every saved tensor once, in PyTorch's order, as a generated node's apply does before it
        computes (a freed or modified one fails here; saved-tensor unpack hooks run here, and their results
        are what the rule reads until :meth:`_drop_unpacked`)."""
        saved = self._saved
        for i in (self._pack_order or range(len(saved))):
            if i < len(saved) and type(saved[i]) is SavedTensor:
                s = saved[i]
                if s._hook is not None and not self._freed:
                    s._cache = s.unpack(self)
                else:
                    self._unpack(i)

    def _drop_unpacked(self) -> None:
        for s in self._saved:
            if type(s) is SavedTensor:
                s._cache = None

    def _unpack(self, i: int):
        """The i-th saved tensor, checked for release and in-place changes."""
        if self._freed:
            err = error_class("second_backward")(
                "Trying to backward through the graph a second time (or directly access saved tensors after "
                "they have already been freed): the saved values of "
                f"{type(self).__name__} were freed by an earlier backward.",
            )
            err.facts = {"node": self, "index": i}  # read by app/related.py
            raise err
        s = self._saved[i]
        if type(s) is SavedTensor:
            if s._cache is not None:  # unpacked through its hook for the running apply (_unpack_all)
                return s._cache
            return s.unpack(self)
        return s

    def _release(self) -> None:
        if self._saved:
            for s in self._saved:
                if type(s) is SavedTensor:
                    s.release()
            # truthy: the (line, col) of the backward call that freed them (True: the one after the file)
            self._freed = source_position.loc or True

    def apply(self, grads: list) -> tuple:  # pragma: no cover - abstract
        raise NotImplementedError


#: saved-tensor hooks, innermost last: callables ``hook(saved, tensor)`` called with each new SavedTensor (after
#: its own set-up) and the tensor it saves.  Only the innermost is called, as PyTorch's default hooks stack:
#: user pairs (:class:`UserHooks`, torch.autograd.graph.saved_tensors_hooks) and autograd.checkpoint's own.
pack_hooks: list = []
#: set once a user pack hook ran (engine: only then are saved tensors unpacked up front); cleared by engine.reset()
hooks_used = [False]
#: the message of torch.autograd.graph.disable_saved_tensors_hooks, innermost last (None: not disabled)
hooks_disabled: list = []


def pack_saved(items, order: Optional[tuple] = None) -> None:
    """Give the new SavedTensors among ``items`` to the innermost saved-tensor hook, in ``order`` (indices)."""
    hook = pack_hooks[-1]
    for i in (order or range(len(items))):
        if i < len(items):
            s = items[i]
            if type(s) is SavedTensor and s._pending is not None:
                t = s._pending
                s._pending = None
                hook(s, t)


class UserHooks:
    """A pair of user hooks on the saved-tensor stack (torch.autograd.graph.saved_tensors_hooks).

    pack(tensor) -> anything runs with grad mode off when a tensor is saved; the SavedTensor then keeps only
    the packed object and the tensor's autograd identity (PyTorch's SavedVariable::save_metadata): no version
    check at unpack.  unpack(packed) -> Tensor runs each time the saved tensor is unpacked.
    """

    __slots__ = ("pack", "unpack")

    def __init__(self, pack, unpack) -> None:
        self.pack = pack
        self.unpack = unpack

    def __call__(self, s: "SavedTensor", t) -> None:
        from .grad_mode import state

        box = t._version
        version = box[0]
        prev = state.enabled
        state.enabled = False  # SavedVariable::set_hooks_and_pack_data: at::NoGradGuard
        try:
            packed = self.pack(t)
        finally:
            state.enabled = prev
        if box[0] != version:
            raise error_class("runtime")(
                "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook "
                "cannot be modified by in-place operations as this can lead to unexpected side-effects. Please "
                "open an issue if you need to perform in-place operations on the input to a pack hook.")
        s._set_hooked(self, packed, t)
        hooks_used[0] = True


#: autograd/tensor.py's Tensor, bound on first use: tensor.py imports this module, and an import statement in
#: unpack() cost ~9 us per saved result (a hot path of every backward)
_Tensor: list = [None]


def _bind_tensor():
    from .tensor import Tensor

    _Tensor[0] = Tensor
    return Tensor


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    Inputs are kept by reference; outputs (``is_output``) as data + version box
    so the node does not own the tensor that owns it (no reference cycle).
    ``_ckpt``: set by a non-reentrant checkpoint, which dropped the value; unpacking
    then recomputes it (``dropped`` is True).  ``_hook``: set by a user's saved-tensor hooks
    (:class:`UserHooks`), which hold the value instead (``_packed``); ``_meta`` is then the tensor's
    autograd identity.  ``_pending``: the tensor, until the innermost saved-tensor hook has seen it
    (:func:`pack_saved`, called by ``Node._save``).
    """

    __slots__ = ("_tensor", "_data", "_box", "_version", "_is_output", "_dtype", "_freed", "_output_nr",
                 "_ckpt", "_was_leaf", "_hook", "_packed", "_meta", "_cache", "_pending", "_fwsrc", "_was")

    def __init__(self, t, is_output: bool = False) -> None:
        if t._inference:
            from .grad_mode import state

            if not state.inference:
                raise error_class("runtime")(
                    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                    "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
                    "normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                    "`torch.inference_mode()`.")
        self._box = t._version
        self._version = t._version[0]
        self._is_output = is_output
        self._freed = False
        self._fwsrc = None
        if is_output:
            self._tensor = None
            self._data = t._data
            self._dtype = t._dtype
            self._output_nr = t._output_nr
            if _fw_state.level is not None:  # a dual output's tangent is saved with it (forward AD)
                self._fwsrc = (_fw_state.serial, weakref.ref(t))
        else:
            self._tensor = t
            self._data = None
        self._was_leaf = t._grad_fn is None  # PyTorch's SavedVariable::is_leaf_ (true for any tensor without grad_fn)
        self._ckpt = None
        self._hook = None
        self._cache = None
        # the innermost saved-tensor hook sees the tensor when the node saves it (Node._save: PyTorch's order)
        self._pending = t if pack_hooks else None

    def _set_hooked(self, hook: UserHooks, packed, t) -> None:
        """Keep ``packed`` instead of the tensor, and the tensor's autograd identity (save_metadata)."""
        self._hook = hook
        self._packed = packed
        if self._is_output:
            self._meta = (tuple(t._data.shape), None, None, None)
        elif t._grad_fn is not None:
            self._meta = (tuple(t._data.shape), t._grad_fn, t._output_nr, None)
        else:
            rg = t.requires_grad
            acc = accumulate_grad_node(t) if t._requires_grad else None
            self._meta = (tuple(t._data.shape), None, rg, acc)
        self._dtype = t._dtype
        self._tensor = None
        self._data = None

    @property
    def freed(self) -> bool:
        return self._freed

    @property
    def dropped(self) -> bool:
        """True when a checkpoint dropped the value (recomputed at backward time)."""
        return self._ckpt is not None

    @property
    def shape(self) -> tuple:
        if self._ckpt is not None:
            return self._ckpt.shape
        if self._hook is not None:
            return self._meta[0]
        d = self._data if self._is_output else (self._tensor._data if self._tensor is not None else None)
        return tuple(d.shape) if d is not None else ()

    def release(self) -> None:
        # which tensor it was, for ``graph --show-saved`` after the free (a weak reference: freeing must not
        # keep the tensor alive); set only here, so saving stays as cheap as before
        t = self._tensor
        if t is not None:
            fn = t._grad_fn
            self._was = (weakref.ref(t), weakref.ref(fn) if fn is not None else None, t._output_nr,
                         t._requires_grad, t._acc)
        elif self._hook is not None and not self._is_output:
            _, fn, nr, acc = self._meta
            self._was = (None, weakref.ref(fn) if fn is not None else None, nr if fn is not None else 0,
                         fn is not None or bool(nr), weakref.ref(acc) if acc is not None else None)
        else:
            self._was = None
        self._tensor = None
        self._data = None
        self._freed = True
        if self._hook is not None:  # SavedVariable::reset_data drops the hooks and the packed object
            self._hook = None
            self._packed = None
            self._meta = (self._meta[0], None, None, None)

    def unpack(self, node: Node, saved_for: bool = False):
        """The saved tensor; ``saved_for``: unpacked with its node as PyTorch's ctx.saved_tensors does (then a
        detach_'d input is no error). Errors: runtime (detached in place), inplace_modified (version)."""
        if self._ckpt is not None:
            return self._ckpt.unpack(self, node)
        if self._hook is not None:
            return self._unpack_hooked(node)
        if not saved_for and not self._is_output and not self._was_leaf and self._tensor is not None and self._tensor._grad_fn is None:
            # PyTorch's SavedVariable::unpack: a saved input that had a grad_fn and lost it (detach_), checked
            # before the version
            raise error_class("runtime")(
                "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
                "supported, please use out-of-place `.detach()` instead")
        if self._box[0] != self._version:
            shape = "x".join(str(s) for s in self.shape) if self.shape else ""
            err = error_class("inplace_modified")(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [{self._type_name()} [{shape}]]"
                + (f", which is output 0 of {type(node).__name__}," if self._is_output else ",")
                + f" is at version {self._box[0]}; expected version {self._version} instead.",
                torch_message=self._torch_message(node),
            )
            err.facts = {"node": node, "saved": self}  # read by app/related.py
            raise err
        if self._is_output:
            t = (_Tensor[0] or _bind_tensor())._from_data(self._data, self._dtype)
            t._version = self._box
            if not self._was_leaf:  # (a non-differentiable output, nll_loss's total_weight, has no history)
                t._grad_fn = node
                t._output_nr = self._output_nr
                t._requires_grad = True
            if self._fwsrc is not None and self._fwsrc[0] == _fw_state.serial and not _fw_state.busy:
                src = self._fwsrc[1]()
                if src is not None:
                    from .forward_ad import tangent_of

                    tan = tangent_of(src)
                    if tan is not None:
                        t._fw = (_fw_state.serial, tan)
            return t
        return self._tensor

    def _unpack_hooked(self, node: Node):
        """The unpack hook's tensor with the saved tensor's autograd identity (SavedVariable::unpack with hooks:
        no version check; a new tensor sharing the result's data)."""
        Tensor = _Tensor[0] or _bind_tensor()
        r = self._hook.unpack(self._packed)
        if not isinstance(r, Tensor):
            from ..errors import ArgumentTypeError

            raise ArgumentTypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                                    f"type {_py_type_name(r)}")
        t = Tensor._from_data(r._data, r._dtype)
        _, fn, nr, acc = self._meta
        if self._is_output and not self._was_leaf:
            t._grad_fn = node
            t._output_nr = self._output_nr
            t._requires_grad = True
        elif fn is not None:
            t._grad_fn = fn
            t._output_nr = nr
            t._requires_grad = True
        else:
            t._requires_grad = bool(nr)
            if acc is not None:
                t._acc = weakref.ref(acc)
        return t

    def _torch_message(self, node: Node) -> str:
        """PyTorch's text of the version error (SavedVariable::unpack): "which is output N of NODE" names the
        node that saved an output, and for an input the tensor's grad_fn now (a view's regenerated one)."""
        from . import anomaly  # (anomaly imports this module)

        if self._is_output:
            fn, nr = node, self._output_nr
        else:
            t = self._tensor
            try:
                fn = t.grad_fn
            except GradcliError:  # a view that cannot be regenerated: its recorded node
                fn = t._grad_fn
            nr = t._output_nr
        return torch_text(
            "inplace_modified", tensor_type=self._type_name(),
            sizes=", ".join(str(n) for n in self.shape),
            output="" if fn is None else f", which is output {nr} of {torch_node_name(fn.name())},",
            version=self._box[0], expected=self._version,
            hint=torch_text("inplace_modified.hint_anomaly" if anomaly.state.enabled else "inplace_modified.hint"))

    def _type_name(self) -> str:
        return legacy_type_name(self._dtype if self._is_output or self._tensor is None else self._tensor._dtype)


_LEGACY_NAMES = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "int64": "torch.LongTensor",
                 "int32": "torch.IntTensor", "bool": "CPUBoolType", "float16": "torch.HalfTensor",
                 "int16": "torch.ShortTensor", "int8": "torch.CharTensor", "uint8": "torch.ByteTensor"}


def legacy_type_name(dtype) -> str:
    """PyTorch's name of a CPU tensor type in autograd messages ('torch.FloatTensor'; 'CPUBoolType' for bool, which
    has no legacy name there)."""
    return _LEGACY_NAMES.get(dtype.name, f"CPU{dtype.name.capitalize()}Type")


def _py_type_name(x) -> str:
    """Python's name of x's type as the sandbox shows it (a user function is a 'function')."""
    k = type(x)
    return getattr(k, "_gradcli_type_name", k.__name__)


class AccumulateGrad(Node):
    """Accumulates the incoming gradient into a leaf's ``.grad`` (runs the leaf's hooks first)."""

    __slots__ = ("variable",)
    _gradcli_public = Node._gradcli_public | {"variable"}
    formula = "variable.grad += grad"

    def __init__(self, variable) -> None:
        super().__init__()
        self.variable = variable
        self.next_functions = ()
        self._seq = float("inf")  # PyTorch: UINT64_MAX, runs as soon as it is ready

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def apply(self, grads: list) -> tuple:  # accumulation is done by the engine (needs create_graph)
        return ()


def accumulate_grad_node(t) -> AccumulateGrad:
    """The (cached) AccumulateGrad node of leaf ``t``: the same object for every edge to t."""
    ref = t._acc
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


def collect_edge(t) -> tuple:
    """The edge ``(node, output_nr)`` a new node uses to reach tensor t; ``(None, 0)`` if t needs no grad."""
    if t is None or not t._requires_grad:
        return (None, 0)
    fn = t._grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    return (accumulate_grad_node(t), 0)
