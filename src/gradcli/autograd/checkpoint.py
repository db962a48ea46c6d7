"""Activation checkpointing: ``torch.utils.checkpoint.checkpoint``.

Both variants of ``torch/utils/checkpoint.py`` (PyTorch 2.13), with their
observable behaviour:

``use_reentrant=False`` (recommended)
    ``fn`` runs normally, recording the graph (so ``y.grad_fn`` is the last op
    of ``fn``, e.g. ``ReluBackward0``), but every tensor saved for backward
    inside it is *dropped*: its SavedTensor gets ``_ckpt`` (``dropped`` is True)
    and the nodes created by ``fn`` get ``_checkpointed = True`` -- what
    ``gradcli graph --show-saved`` reports.  The tensor inputs are saved
    (version-checked).  In backward, the first unpack of a dropped tensor
    re-runs ``fn`` (grad enabled, the forward's RNG state restored and the
    surrounding one kept) and stops as soon as every dropped tensor has been
    recomputed ("early stop", so code after the last saving op of ``fn`` does
    not run again).  The recomputed values are then used, with the original
    tensors' autograd identity (so ``create_graph`` works).  One
    recomputation per backward pass: a second backward with
    ``retain_graph=True`` recomputes again; without it, ``second_backward``.
    Under ``no_grad`` ``fn`` just runs.  Keyword arguments go to ``fn``.

``use_reentrant=True`` (and the default when ``use_reentrant`` is not passed,
which warns, kind ``other``)
    A custom Function ``CheckpointFunction``: ``fn`` runs under ``no_grad``;
    outputs get ``grad_fn=<CheckpointFunctionBackward>``; backward re-runs ``fn``
    in full on detached inputs and backpropagates through it.  Refuses
    ``autograd.grad`` / ``backward(inputs=...)`` and keyword arguments, and warns
    "None of the inputs have requires_grad=True. Gradients will be None" when
    no input requires grad -- PyTorch's messages.

The recomputation hook is :data:`gradcli.autograd.graph.pack_hooks`; the
early stop is :class:`StopRecomputation`, a BaseException that the interpreter
must let pass through user code unchanged.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from ..errors import error_class, warn
from . import engine, grad_mode, graph
from .function import Function
from .graph import Node, SavedTensor, accumulate_grad_node
from .tensor import Tensor

__all__ = ["CheckpointError", "CheckpointFunction", "StopRecomputation", "checkpoint", "checkpoint_sequential"]

_mode = grad_mode.state

CheckpointError = type("CheckpointError", (error_class("runtime"),), {
    "__module__": __name__, "__doc__": "torch.utils.checkpoint.CheckpointError (kind runtime)."})

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""

_USE_REENTRANT_MSG = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch 2.9, "
    "calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is recommended, but if "
    "you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants."
)


class StopRecomputation(BaseException):
    """Raised inside the recomputation once every dropped tensor is recomputed (PyTorch's early stop).

    A BaseException so that user code and the interpreter's ``except Exception``
    handlers let it through to :func:`_Frame.recompute`.
    """


def _runtime(msg: str, torch_type: type | None = None):
    return error_class("runtime")(msg, torch_type=torch_type)


def _generator():
    try:
        from . import random as _random
    except ImportError:  # pragma: no cover - random module absent
        return None
    return getattr(_random, "default_generator", None)


class _fork_rng:
    """Run a block with the generator set to ``state``, restoring the surrounding state after."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def __enter__(self) -> None:
        gen = _generator()
        self.gen = gen if self.state is not None else None
        if self.gen is not None:
            self.saved = self.gen.get_state()
            self.gen.set_state(self.state)

    def __exit__(self, *exc: object) -> None:
        if self.gen is not None:
            self.gen.set_state(self.saved)


def _rng_state(preserve: bool) -> Any:
    gen = _generator() if preserve else None
    return gen.get_state() if gen is not None else None


# --- non-reentrant ------------------------------------------------------------------------------------


class _Holder:
    """What a dropped SavedTensor keeps: its frame, its index there, and its metadata (no values)."""

    __slots__ = ("dtype", "frame", "index", "shape")

    def __init__(self, frame: _Frame, index: int, shape: tuple, dtype: Any) -> None:
        self.frame = frame
        self.index = index
        self.shape = shape
        self.dtype = dtype

    def unpack(self, saved: SavedTensor, node: Node) -> Tensor:
        """The recomputed value of ``saved`` with its original autograd identity (SavedVariable::unpack)."""
        frame = self.frame
        gid = engine.current_graph_task_id()
        if gid == -1:  # unpacked outside backward: a fresh recomputation each time
            gid = next(_outside_ids)
        rec = frame.recomputed.get(gid)
        if rec is None:
            rec = frame.recompute(gid, node)
        r = rec[self.index]
        data = r._data if r._is_output else r._tensor._data
        t = Tensor._from_data(data, self.dtype)
        t._version = r._box
        if saved._is_output:
            t._grad_fn = node
            t._output_nr = saved._output_nr
            t._requires_grad = True
        else:
            orig = saved._tensor
            t._requires_grad = orig._requires_grad
            t._grad_fn = orig._grad_fn
            t._output_nr = orig._output_nr
            if orig._grad_fn is None and orig._requires_grad:
                accumulate_grad_node(orig)
                t._acc = orig._acc
        return t


_outside_ids = itertools.count(-2, -1)


class _Frame:
    """One non-reentrant checkpoint call: what is needed to recompute its dropped tensors."""

    def __init__(self, fn: Callable, args: tuple, kwargs: dict, preserve: bool, early_stop: bool,
                 determinism_check: str, recompute_ctx: Any) -> None:
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.early_stop = early_stop
        self.determinism_check = determinism_check
        self.recompute_ctx = recompute_ctx
        self.rng = _rng_state(preserve)
        self.inputs: list = []  # (position, SavedTensor) of the tensor args, version-checked at recompute
        self.holders: list = []  # SavedTensors dropped by this frame, in the order they were saved (forward only)
        self.meta: list = []  # (shape, dtype) of each dropped tensor, in that order
        self.recomputed: dict = {}  # graph task id -> SavedTensors saved by the recomputation

    def pack(self, s: SavedTensor, t: Tensor) -> None:
        self.holders.append(s)

    def drop(self) -> None:
        for i, s in enumerate(self.holders):
            shape = s.shape
            dtype = s._dtype if s._is_output else s._tensor._dtype
            s._ckpt = _Holder(self, i, shape, dtype)
            self.meta.append((shape, dtype))
            if s._is_output:
                s._data = None  # the value is dropped; the input case keeps only the tensor's identity
        self.holders = []  # no frame <-> SavedTensor reference cycle

    def recompute(self, gid: int, node: Node) -> list:
        args = list(self.args)
        for pos, s in self.inputs:
            args[pos] = s.unpack(node)  # inplace_modified if an input changed since the forward
        rec: list = []
        n = len(self.meta)
        early = self.early_stop

        def hook(s: SavedTensor, t: Tensor) -> None:
            if len(rec) >= n and not early:
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during recomputation "
                                      "than during the original forward pass.\n" + _DEBUG_TIP)
            rec.append(s)
            if early and len(rec) == n:
                raise StopRecomputation

        active = [task[0] for task in engine._tasks]
        for g in list(self.recomputed):
            if g not in active:
                del self.recomputed[g]
        prev = (_mode.enabled, _mode.inference)
        graph.pack_hooks.append(hook)
        try:
            _mode.enabled = True
            _mode.inference = False
            with _fork_rng(self.rng):
                if n or not early:
                    ctx = self.recompute_ctx
                    if ctx is not None:
                        with ctx:
                            self.fn(*args, **self.kwargs)
                    else:
                        self.fn(*args, **self.kwargs)
        except StopRecomputation:
            pass
        finally:
            graph.pack_hooks.pop()
            _mode.enabled, _mode.inference = prev
        self._check(rec)
        self.recomputed[gid] = rec
        return rec

    def _check(self, rec: list) -> None:
        if self.determinism_check == "none":
            return
        if len(rec) != len(self.meta):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {len(self.meta)}\n"
                f"Number of tensors saved during recomputation: {len(rec)}.\n{_DEBUG_TIP}")
        diffs = ""
        for idx, ((shape, dtype), r) in enumerate(zip(self.meta, rec)):
            r_dtype = r._dtype if r._is_output else r._tensor._dtype
            if tuple(shape) != tuple(r.shape) or dtype is not r_dtype:
                diffs += (f"tensor at position {idx}:\n"
                          f"saved metadata: {_meta_str(shape, dtype)}\n"
                          f"recomputed metadata: {_meta_str(r.shape, r_dtype)}\n")
        if diffs:
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have "
                                  f"different metadata than during the forward pass.\n{diffs}.\n{_DEBUG_TIP}")


def _meta_str(shape: tuple, dtype: Any) -> str:
    return (f"{{'shape': torch.Size([{', '.join(str(int(s)) for s in shape)}]), 'dtype': {dtype}, "
            "'device': device(type='cpu')}")


def _tensors_in(out: Any) -> list:
    found: list = []
    stack = [out]
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            found.append(x)
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return found


def _mark_region(outputs: Any, start_seq: int) -> None:
    """Flag every node created by the checkpointed function that the outputs reach."""
    stack = [t._grad_fn for t in _tensors_in(outputs) if t._grad_fn is not None]
    seen: set = set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen or not isinstance(n._seq, int) or n._seq < start_seq:
            continue
        seen.add(id(n))
        n._checkpointed = True
        stack.extend(nx for nx, _ in n.next_functions if nx is not None)


def _checkpoint_without_reentrant(fn: Callable, preserve: bool, context_fn: Callable | None,
                                  determinism_check: str, early_stop: bool, args: tuple, kwargs: dict) -> Any:
    if determinism_check not in ("default", "none"):
        raise _runtime(f"determinism_check should be one of ['default', 'none'], but got {determinism_check}",
                       torch_type=ValueError)
    forward_ctx = recompute_ctx = None
    if context_fn is not None:
        forward_ctx, recompute_ctx = context_fn()
    if not _mode.enabled:
        if forward_ctx is not None:
            with forward_ctx:
                return fn(*args, **kwargs)
        return fn(*args, **kwargs)
    frame = _Frame(fn, args, kwargs, preserve, early_stop, determinism_check, recompute_ctx)
    frame.inputs = [(i, SavedTensor(a)) for i, a in enumerate(args) if isinstance(a, Tensor)]
    if graph.pack_hooks:  # PyTorch saves the inputs before its own hooks are pushed: a user's hooks see them
        graph.pack_saved([s for _, s in frame.inputs])
    start = next(graph._seq)
    graph.pack_hooks.append(frame.pack)
    try:
        if forward_ctx is not None:
            with forward_ctx:
                out = fn(*args, **kwargs)
        else:
            out = fn(*args, **kwargs)
    finally:
        graph.pack_hooks.pop()
    frame.drop()
    _mark_region(out, start)
    return out


# --- reentrant -------------------------------------------------------------------------------------------


def _check_backward_validity(inputs: tuple) -> None:
    if not any(isinstance(a, Tensor) and a._requires_grad for a in inputs):
        warn("other", "None of the inputs have requires_grad=True. Gradients will be None")


def _detach_variable(inputs: tuple) -> tuple:
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x._requires_grad = inp._requires_grad
        out.append(x)
    return tuple(out)


class CheckpointFunction(Function):
    """The reentrant checkpoint (torch.utils.checkpoint.CheckpointFunction): backward re-runs the function."""

    _gradcli_module = "torch.utils.checkpoint"

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        _check_backward_validity(args)
        d = ctx.__dict__
        d["_run_function"] = run_function
        d["_preserve_rng_state"] = preserve_rng_state
        d["_fwd_rng_state"] = _rng_state(preserve_rng_state)
        inputs: list = []
        tensor_indices: list = []
        tensor_inputs: list = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                tensor_indices.append(i)
                inputs.append(None)
            else:
                inputs.append(arg)
        d["_inputs"] = inputs
        d["_tensor_indices"] = tensor_indices
        ctx.save_for_backward(*tensor_inputs)
        prev = _mode.enabled
        _mode.enabled = False
        try:
            return run_function(*args)
        finally:
            _mode.enabled = prev

    @staticmethod
    def backward(ctx, *args):
        if not engine.checkpoint_valid():
            raise _runtime("When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing "
                           "an `inputs` parameter to .backward(). To resolve this error, you can either set "
                           "use_reentrant=False, or call .backward() without passing the `inputs` argument.")
        d = ctx.__dict__
        inputs = list(d["_inputs"])
        tensors = ctx.saved_tensors
        for i, idx in enumerate(d["_tensor_indices"]):
            inputs[idx] = tensors[i]
        with _fork_rng(d["_fwd_rng_state"]):
            detached = _detach_variable(tuple(inputs))
            prev = _mode.enabled
            _mode.enabled = True
            try:
                outputs = d["_run_function"](*detached)
            finally:
                _mode.enabled = prev
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outputs_with_grad = []
        args_with_grad = []
        for i in range(len(outputs)):
            if isinstance(outputs[i], Tensor) and outputs[i]._requires_grad:
                outputs_with_grad.append(outputs[i])
                args_with_grad.append(args[i])
        if not outputs_with_grad:
            raise _runtime("none of output has requires_grad=True, this checkpoint() is not necessary")
        engine.backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp._grad if isinstance(inp, Tensor) else None for inp in detached)
        return (None, None) + grads


# --- the public function ------------------------------------------------------------------------------


def checkpoint(function: Callable, *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable | None = None, determinism_check: str = "default", debug: bool = False,
               early_stop: bool = True, **kwargs: Any) -> Any:
    """torch.utils.checkpoint.checkpoint(function, *args, use_reentrant=...): trade compute for memory.

    Returns ``function(*args, **kwargs)``.  ``preserve_rng_state`` (default True)
    is read from kwargs, as in PyTorch.  Without ``use_reentrant`` it warns and
    uses the reentrant variant (PyTorch 2.13's default).
    """
    if use_reentrant is None:
        warn("other", _USE_REENTRANT_MSG)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise _runtime("Unexpected keyword arguments: " + ",".join(kwargs), torch_type=ValueError)
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise _runtime("Passing `context_fn` or `debug` is only supported when use_reentrant=False.",
                           torch_type=ValueError)
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, early_stop, args,
                                         kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Any, use_reentrant: bool | None = None,
                          **kwargs: Any) -> Any:
    """torch.utils.checkpoint.checkpoint_sequential for a list of functions: checkpoint each segment."""
    if use_reentrant is None:
        warn("other", "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
                      "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
                      "use_reentrant=False is recommended, but if you need to preserve the current default "
                      "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.")
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise _runtime("Unexpected keyword arguments: " + ",".join(kwargs), torch_type=ValueError)
    functions = list(functions)

    def run_function(start: int, end: int, fns: list) -> Callable:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = fns[j](x)
            return x

        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
