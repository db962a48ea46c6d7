"""The backward engine: iterative, dependency-counted, PyTorch's execution order.

Follows ``torch/csrc/autograd/engine.cpp`` on the CPU:

1. the roots' gradients are checked and made (``_make_grads`` in
   torch/autograd/__init__.py: shape mismatch -> ``grad_shape``, implicit
   gradient of a non-scalar -> ``non_scalar_backward``, a root without
   grad_fn -> ``no_grad_fn``);
2. the graph is walked once with an explicit stack to find the nodes needed
   (all of them, or with ``inputs=`` only those that lead to an input) and to
   count each needed node's dependencies;
3. nodes run from a ready heap, highest sequence number first (the most
   recently created node runs first, AccumulateGrad as soon as it is ready),
   each once, with the sum of its incoming gradients (one buffer per node);
   tensor pre-hooks run first, then ``retain_grad``; the rule's outputs are
   reduced to each input's shape (undoing broadcasting) and cast to its dtype
   here, centrally;
4. without ``retain_graph`` each node's saved tensors are released after it
   runs, so a later backward through it fails with ``second_backward``.

Nothing here recurses: a 1,000,000-node chain needs no deeper Python stack.
"""

from __future__ import annotations

import heapq
import itertools
import weakref

import numpy as np
from typing import Optional, Sequence

from ..errors import ArgumentTypeError, error_class, torch_text, warn
from . import anomaly as _anomaly
from . import limits as _limits
from . import grad_mode
from . import zerotensor as _zt
from .graph import AccumulateGrad, accumulate_grad_node, hooks_disabled, hooks_used, inplace_log, pack_hooks
from .graph import legacy_type_name, _py_type_name
from .graph import source_position as _pos
from .tensor import Tensor
from . import forward_ad as _fwad

__all__ = ["backward", "grad", "reset", "current_graph_task_id", "checkpoint_valid"]

# running backward passes, innermost last: (task id, backward without ``inputs=``, the nodes it runs, whether it
# is autograd.grad); read by autograd.checkpoint (one recomputation per pass; reentrant checkpoint refuses
# grad()/inputs=) and will_execute_node (register_multi_grad_hook)
_tasks: list = _anomaly.state.backward_tasks  # (the same list: anomaly's forward watch skips backward ops)
_task_counter = [0]


def current_graph_task_id() -> int:
    """The id of the innermost running backward pass, -1 outside backward (torch._C._current_graph_task_id)."""
    return _tasks[-1][0] if _tasks else -1


def will_execute_node(node) -> bool:
    """Will the running backward pass execute ``node``? (torch._C._will_engine_execute_node, as
    register_multi_grad_hook uses it.)  Raises runtime outside backward, and for a leaf's AccumulateGrad
    during autograd.grad, as PyTorch does."""
    if not _tasks:
        raise error_class("runtime")("_get_should_execute_nodes should only be called during the backward pass")
    _, unrestricted, needed, is_grad = _tasks[-1]
    ran = node in needed
    if ran and is_grad and type(node) is AccumulateGrad:
        raise error_class("runtime")(
            "A leaf node was passed to _will_engine_execute_node but we are currently running autograd.grad(). "
            "This is currently not supported.")
    return ran


def checkpoint_valid() -> bool:
    """False inside a pass run by autograd.grad or backward(inputs=...) (torch.autograd._is_checkpoint_valid)."""
    return _tasks[-1][1] if _tasks else True

_warned_create_graph = [False]


#: when a list, every backward appends one event per node it runs (``--trace``); None = off (no cost)
trace_sink: Optional[list] = None


#: ``fn(node, grads)`` called where PyTorch calls a node's Node.register_prehook hooks (before it runs), or
#: None (off: ``graph --values`` only, autograd/values.py)
arrival_sink = None


#: every backward()/grad() call that got past its argument checks, oldest first (bounded), for the
#: explainers (app/why.py): dicts {"kind": "backward"|"grad", "loc", "roots": [weakref(node)],
#: "inputs": [weakref(tensor)] | None, "retain_graph", "gradient": bool}
backward_log: list = []
_LOG_MAX = 256
#: callables ``observer(phase, outputs, grads, inputs)`` run by backward() before ("before") and after
#: ("after") its pass (app/vjp.py); empty outside such a view
observers: list = []


def reset() -> None:
    """Forget per-process state (the once-per-process create_graph warning, the trace sink, the logs, the
    saved-tensor hooks stack)."""
    global trace_sink
    _warned_create_graph[0] = False
    trace_sink = None
    backward_log.clear()
    inplace_log.clear()
    hooks_used[0] = False
    pack_hooks.clear()  # (a run that ended inside a saved_tensors_hooks block left its pair)
    hooks_disabled.clear()
    _fwad.reset()


def _log_call(kind: str, roots: list, inputs, retain_graph: bool, gradient: bool) -> None:
    if len(backward_log) >= _LOG_MAX:
        del backward_log[: _LOG_MAX // 2]
    backward_log.append({
        "kind": kind, "loc": _pos.loc, "roots": [weakref.ref(n) for n, _ in roots],
        "inputs": None if inputs is None else [weakref.ref(t) for t in inputs],
        "retain_graph": bool(retain_graph), "gradient": gradient,
    })


def _trace(node, grads, outs, hooks_ran: int) -> None:
    """Record one executed node for --trace: its name, line, incoming and outgoing gradients."""
    ev = {"step": len(trace_sink) + 1, "node": type(node).__name__, "line": node._line, "grad_fn": node,
          "grad_in": [g for g in grads]}
    if type(node) is AccumulateGrad:
        ev["accumulated_into"] = node.variable
        ev["grad_out"] = []
    else:
        ev["grad_out"] = [(nx, g) for (nx, _), g in zip(node.next_functions, outs or ()) if nx is not None]
        # the input each grad_out entry is the gradient of (next_functions' index), for the explainers
        ev["out_index"] = [i for i, ((nx, _), _g) in enumerate(zip(node.next_functions, outs or ())) if nx is not None]
    if hooks_ran:
        ev["hooks"] = hooks_ran
    trace_sink.append(ev)


def _as_list(x) -> list:
    if isinstance(x, Tensor):
        return [x]
    if x is None:
        return []
    try:
        return list(x)
    except TypeError as e:  # PyTorch's tuple(outputs): "'int' object is not iterable" (kind type)
        raise ArgumentTypeError(str(e)) from None


def _shape_str(shape) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def _make_grads(outputs: list, grads: list, is_grads_batched: bool = False) -> list:
    """Check or create the gradient of each root, as torch.autograd._make_grads."""
    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if not isinstance(o, Tensor):  # torch.autograd._make_grads checks each root first (an AssertionError)
            raise error_class("assertion")(
                "Expected output to be a torch.Tensor",
                "Pass tensors as the outputs of backward/grad, not Python numbers (.item() and .tolist() leave "
                "autograd).",
            )
        if isinstance(g, Tensor):
            if g._data.shape != o._data.shape:
                raise error_class("grad_shape")(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {_shape_str(g._data.shape)} and "
                    f"output[{i}] has a shape of {_shape_str(o._data.shape)}.",
                    "Pass a gradient with exactly the output's shape (e.g. torch.ones_like(output)).",
                )
            if g._dtype is not o._dtype and not g._zero:
                g = g.to(o._dtype)  # the engine's validate_outputs casts a root's gradient to the root's dtype
            out.append(g)
        elif g is None:
            if o.requires_grad:
                if o._data.size != 1:
                    err = error_class("non_scalar_backward")(
                        "grad can be implicitly created only for scalar outputs: the output has shape "
                        f"{list(o._data.shape)}.",
                        "Reduce it to a scalar (e.g. .sum()) or pass gradient=torch.ones_like(output) "
                        "(on the command line: --gradient ones).",
                    )
                    err.facts = {"root": o, "index": i}  # read by app/related.py
                    raise err
                from ..ops.creation import ones_like

                out.append(ones_like(o))
            else:
                out.append(None)
        else:
            raise ArgumentTypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return out


def _root_edges(outputs: list) -> list:
    edges = []
    for i, o in enumerate(outputs):
        if o._base is not None:
            o._view_grad_fn()  # a view's history is regenerated if its base changed in place since
        if not o._requires_grad:
            err = error_class("no_grad_fn")(
                f"element {i} of tensors does not require grad and does not have a grad_fn",
            )
            err.facts = {"root": o, "index": i}  # read by app/related.py
            raise err
        if o._grad_fn is not None:
            edges.append((o._grad_fn, o._output_nr))
        else:
            edges.append((accumulate_grad_node(o), 0))
    return edges


def _input_target(t: Tensor):
    if t._base is not None:
        t._view_grad_fn()  # a view's history is regenerated if its base changed in place since
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    return (accumulate_grad_node(t), 0)


def _needed_nodes(roots: list, targets: Optional[set]) -> tuple[dict, object]:
    """Needed nodes (all reachable, or those leading to a target node) and their dependency counts."""
    if targets is None:
        # every reachable node is needed: count the dependencies in the same walk (one pass over the graph);
        # the counts are also the set of needed nodes (roots at 0 unless an edge reaches them)
        deps: dict = {}
        stack = []
        for n, _ in roots:
            if n not in deps:
                deps[n] = 0
                stack.append(n)
        while stack:
            for nxt, _ in stack.pop().next_functions:
                if nxt is not None:
                    if nxt in deps:
                        deps[nxt] += 1
                    else:
                        deps[nxt] = 1
                        stack.append(nxt)
        return deps, deps
    # a node is needed if it is a target or some next node is needed: iterate to a fixed point in
    # reverse topological order, computed iteratively (post-order with an explicit stack)
    post: list = []
    visited = set()
    for start in (n for n, _ in roots):
        if start in visited:
            continue
        stack2 = [(start, iter(start.next_functions))]
        visited.add(start)
        while stack2:
            node, it = stack2[-1]
            advanced = False
            for nxt, _ in it:
                if nxt is not None and nxt not in visited:
                    visited.add(nxt)
                    stack2.append((nxt, iter(nxt.next_functions)))
                    advanced = True
                    break
            if not advanced:
                stack2.pop()
                post.append(node)
    needed = set()
    for node in post:  # children before parents
        if node in targets or any(nx is not None and nx in needed for nx, _ in node.next_functions):
            needed.add(node)
    deps = {}
    for n in needed:
        for nxt, _ in n.next_functions:
            if nxt is not None and nxt in needed:
                deps[nxt] = deps.get(nxt, 0) + 1
    return deps, needed


def _reduce_to(g: Tensor, shape: tuple, dtype, node=None, i: int = 0) -> Tensor:
    """Undo broadcasting (sum to ``shape``) and cast to ``dtype``: PyTorch's validate_outputs, which refuses a
    gradient the input's shape does not expand to (a runtime error naming the node)."""
    if g._data.shape != shape:
        gs = g._data.shape
        lead = len(gs) - len(shape)
        if lead < 0 or any(s != 1 and s != gs[lead + k] for k, s in enumerate(shape)):
            name = node.name() if node is not None else "Function"
            raise error_class("runtime")(
                f"Function {name} returned an invalid gradient at index {i} - got {list(gs)} but expected shape "
                f"compatible with {list(shape)}")
        g = g.sum_to_size(shape)
    if g._dtype is not dtype:
        g = g.to(dtype)
    return g


def _add(a: Optional[Tensor], b: Tensor) -> Tensor:
    return b if a is None else a + b


def _call_hooks(hooks: list, g: Optional[Tensor]) -> Optional[Tensor]:
    """Run a tensor's hooks in order, each on the previous one's result (g None: no gradient arrived, and
    PyTorch still calls every hook, with None; a hook may not turn it into a tensor)."""
    for h in list(hooks):
        r = h(g)
        if r is not None and r is not g:
            _check_single_result(g, r, h)  # PyTorch's checks and messages (python_hook.cpp)
            g = r
    return g


def _hook_name(hook) -> str:
    name = getattr(hook, "__name__", None)
    return name if isinstance(name, str) else "<unknown>"


def _check_single_result(orig: Optional[Tensor], res, hook) -> None:
    """PyTorch's check_single_result / check_variable_result (python_hook.cpp) for one value a hook returned."""
    if res is None:
        return
    if orig is None:
        raise error_class("runtime")("can't replace a None gradient with a non-None value")
    if not isinstance(res, Tensor):
        raise ArgumentTypeError(f"expected Variable, but hook returned '{_py_type_name(res)}'")
    if res._dtype is not orig._dtype:
        raise error_class("runtime")(
            f"hook '{_hook_name(hook)}' has changed the type of value (was {legacy_type_name(orig._dtype)} got "
            f"{legacy_type_name(res._dtype)})")
    if res._data.shape != orig._data.shape:
        raise error_class("runtime")(f"hook '{_hook_name(hook)}' has changed the size of value")


def _check_result(prev: tuple, res, hook) -> None:
    """PyTorch's check_result: a Node hook returns a tuple of the same length, each value checked."""
    if not isinstance(res, tuple):
        raise ArgumentTypeError(f"expected tuple, but hook returned '{_py_type_name(res)}'")
    if len(res) != len(prev):
        raise error_class("runtime")(
            f"hook '{_hook_name(hook)}' has returned an incorrect number of values (got {len(res)}, but expected "
            f"{len(prev)})")
    for p, r in zip(prev, res):
        _check_single_result(p, r, hook)


def _call_node_pre_hooks(node, grads: list) -> list:
    """Node.register_prehook hooks ``fn(grad_outputs) -> tuple | None``, each on the previous one's result."""
    cur = tuple(grads)
    for h in list(node._pre_hooks[-1]):
        r = h(cur)
        if r is None or r is cur:
            continue
        _check_result(cur, r, h)
        cur = r
    return list(cur)


def _call_post_hooks(node, outs, grads) -> tuple:
    """Node.register_hook hooks ``fn(grad_inputs, grad_outputs) -> tuple | None`` after the node ran: they see
    its gradients already at each input's shape and dtype (PyTorch's validate_outputs comes first) and may
    replace them."""
    meta = getattr(node, "_meta", ())  # (an AccumulateGrad has no inputs' metadata: no outputs)
    cur = list(outs)
    for i, g in enumerate(cur):
        if g is not None and i < len(meta) and meta[i] is not None:
            shape, dtype = meta[i]
            if g._data.shape != shape or g._dtype is not dtype:
                cur[i] = _reduce_to(g, shape, dtype, node, i)
    cur = tuple(cur)
    gouts = tuple(grads)
    for h in list(node._hooks):
        r = h(cur, gouts)
        if r is None or r is cur:
            continue
        _check_result(cur, r, h)
        cur = r
    return cur


def _detached_retain(t: Tensor) -> bool:
    """A tensor detach_()-ed after retain_grad(): PyTorch's detach_ leaves retains_grad and the hook on the old
    grad_fn, which still fills its .grad when a backward runs through that node."""
    return t._grad_fn is None and t._retains_grad


def _unneeded_root_hooks(node, grads: list, create_graph: bool) -> None:
    """The tensor hooks and retain_grad of a root node that the pass does not otherwise run."""
    if type(node) is AccumulateGrad:
        t = node.variable
        if t is not None and t._hooks and grads and grads[0] is not None:
            _call_hooks(t._hooks, grads[0])
        return
    grads = list(grads)
    if node._pre_hooks:
        for nr, hooks in node._pre_hooks.items():
            if 0 <= nr < len(grads) and grads[nr] is not None and hooks:
                grads[nr] = _call_hooks(hooks, grads[nr])
    if node._retained:
        for nr, ref in node._retained.items():
            t = ref()
            g = grads[nr] if nr < len(grads) else None
            if t is not None and g is not None and (t._grad_fn is node or _detached_retain(t)):
                if t._grad is None:
                    t._grad = g if create_graph else Tensor._from_data(g._data.copy(), g._dtype)
                else:
                    t._grad = t._grad + g


def _accumulate_into(t: Tensor, g: Tensor, create_graph: bool) -> None:
    """AccumulateGrad (torch/csrc/autograd/functions/accumulate_grad.h).

    The first gradient is stored as a copy, never an alias (under create_graph
    the copy is differentiable: CopyBackwards); later ones are added in place
    outside create_graph, out of place with it.
    """
    if t._grad is None:
        if create_graph:
            from ..ops.creation import zeros_like
            from ..ops.inplace import copy_

            ng = zeros_like(g)
            copy_(ng, g)
            t._grad = ng
        else:
            t._grad = Tensor._from_data(g._data.copy(), g._dtype)
            t._grad._zero = g._zero  # PyTorch keeps the gradient itself: a ZeroTensor stays one
    elif create_graph:
        t._grad = t._grad + g
    else:
        cur = t._grad
        if cur._zero:  # PyTorch adds in place (variable_grad += new_grad)
            raise _zt.error(_zt.IMMUTABLE)
        np.add(cur._data, g._data, out=cur._data, casting="unsafe")  # in place, as PyTorch outside create_graph
        cur._version[0] += 1


def _call_idle(node, retain_graph: bool) -> None:
    """A node PyTorch calls with nothing to compute (no gradient arrived, or only a capture target): its
    generated apply still unpacks every saved tensor first (a freed or modified one fails here) and the
    engine releases them after it without retain_graph."""
    if node._saved:
        if node._pack_order is None and not hooks_used[0]:
            for i in range(len(node._saved)):
                node._unpack(i)
        else:
            node._unpack_all()
            node._drop_unpacked()
    if not retain_graph:
        node._release()


def _apply_hooked(node, grads: list, anomaly: bool, full) -> tuple:
    """``node.apply(grads)`` when saved-tensor hooks were used: the saved tensors are unpacked first, once, in
    PyTorch's order (unpack hooks run then), as a generated node's apply does.  ``full``: the node's needs to
    restore after a pass restricted by ``inputs`` (None: unrestricted)."""
    try:
        node._unpack_all()
        return _anomaly.apply_checked(node, grads) if anomaly else node.apply(grads)
    finally:
        node._drop_unpacked()
        if full is not None:
            node._needs = full


_UNNUMBERED = -(1 << 80)  # below every -seq: nodes with an infinite sequence number run first


def _ready_key(node, ties) -> int:
    """The ready heap's key: -seq (highest sequence number first, as PyTorch's ReadyQueue).  Nodes whose seq is
    infinite (AccumulateGrad, NotImplemented: PyTorch's UINT64_MAX) come before all others and, among themselves,
    in the order they became ready (``ties``: a counter), as std::priority_queue pops equal tasks in simple cases:
    an AccumulateGrad made ready after a NotImplemented node never runs, its hooks unseen."""
    seq = node._seq
    return -seq if type(seq) is int else _UNNUMBERED + next(ties)


def _execute(roots: list, root_grads: list, *, retain_graph: bool, create_graph: bool,
             targets: Optional[set], captures: Optional[dict], accumulate: bool) -> None:
    """Run the backward pass from ``roots`` (edges) with ``root_grads``.

    targets: nodes that must be reached (None = everything); captures: maps an
    edge (node, output_nr) to a list cell receiving its gradient (autograd.grad).
    accumulate: whether AccumulateGrad writes ``.grad``.
    """
    if _fwad.state.pending and not _fwad.state.busy:
        _fwad.flush()  # dual results' tangents read saved values this pass may free
    deps, needed = _needed_nodes(roots, targets)
    buffers: dict = {}
    for (node, nr), g in zip(roots, root_grads):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * node.num_outputs
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    heap: list = []  # _ready_key of each ready node: plain ints, which compare faster than tuples
    waiting: dict = {}  # key -> ready node in the heap
    ties = itertools.count()
    owned: dict = {}  # id -> gradient sums the engine created, safe to add into in place
    pushed = set()
    for node, _ in roots:
        if node in needed and deps.get(node, 0) == 0 and node not in pushed:
            pushed.add(node)
            k = _ready_key(node, ties)
            heapq.heappush(heap, k)
            waiting[k] = node
    mode = grad_mode.state
    prev = (mode.enabled, mode.inference)
    mode.enabled = create_graph
    mode.inference = False
    _task_counter[0] += 1
    _tasks.append((_task_counter[0], targets is None, needed, captures is not None))
    anomaly = _anomaly.state
    try:
        if len(roots) == 1 and roots[0][0] not in needed:
            # PyTorch evaluates a single root node even when nothing beyond it is needed, and "always
            # calls tensor pre-hooks" there (engine.cpp evaluate_function): the output's hooks and
            # retain_grad still see its gradient
            _unneeded_root_hooks(roots[0][0], buffers.get(roots[0][0]) or [], create_graph)
        countdown = _limits._countdown
        heappop, heappush = heapq.heappop, heapq.heappush
        ready = None  # the next node to run when it is the only ready one (a chain skips the heap)
        while True:
            if ready is not None:
                node = ready
                ready = None
            elif heap:
                node = waiting.pop(heappop(heap))
            else:
                break
            countdown[0] -= 1
            if countdown[0] <= 0:
                _limits.backward_step()  # every CHECK_EVERY nodes: the run's clock (--timeout)
            grads = buffers.pop(node, None) or [None] * node.num_outputs
            if owned:
                for g in grads:
                    if g is not None:
                        owned.pop(id(g), None)
            captured = None
            if captures and type(node) is not AccumulateGrad and any(
                    (node, nr) in captures for nr in range(node.num_outputs)) and any(
                    nx is not None and nx in needed for nx, _ in node.next_functions):
                # PyTorch (engine.cpp evaluate_function) captures a node that will run with the incoming
                # gradients as they are, and one that will not after its tensor pre-hooks (below)
                captured = list(grads)
            if node._pre_hooks:
                for nr, hooks in node._pre_hooks.items():
                    if nr >= 0 and hooks:  # (also with no gradient: engine.cpp calls every tensor pre-hook)
                        grads[nr] = _call_hooks(hooks, grads[nr])
            if captured is None and captures and type(node) is not AccumulateGrad:
                captured = list(grads)  # after tensor hooks (retain_grad adds nothing to the gradient)
            if node._retained:
                for nr, ref in node._retained.items():
                    t = ref()
                    g = grads[nr]
                    if t is not None and g is not None and (t._grad_fn is node or _detached_retain(t)):
                        if t._grad is None:
                            t._grad = g if create_graph else Tensor._from_data(g._data.copy(), g._dtype)
                        else:
                            t._grad = t._grad + g
            if captures and type(node) is not AccumulateGrad:
                for nr in range(node.num_outputs):
                    cell = captures.get((node, nr))
                    if cell is not None and captured[nr] is not None:
                        cell[0] = _add(cell[0], captured[nr])
            if type(node) is AccumulateGrad:
                g = grads[0]
                t = node.variable
                # (g None: no gradient arrived, as from torch.norm(x, 0); PyTorch still calls the leaf's hooks,
                # with None, and its post-accumulate hooks)
                if t._hooks:
                    g = _call_hooks(t._hooks, g)
                if captures is not None and (node, 0) in captures:
                    if g is not None:  # a captured leaf is not executed: no node hooks, no accumulation
                        captures[(node, 0)][0] = _add(captures[(node, 0)][0], g)
                else:
                    if node._pre_hooks and node._pre_hooks.get(-1):
                        g = _call_node_pre_hooks(node, [g])[0]  # Node.register_prehook: after the tensor hooks
                    if accumulate and t._requires_grad:  # a leaf detach_()-ed since: nothing (as PyTorch)
                        if g is not None:
                            _accumulate_into(t, g, create_graph)
                        if t._post_acc_hooks:
                            for h in list(t._post_acc_hooks):
                                h(t)
                    if node._hooks:
                        _call_post_hooks(node, (), (g,))
                if trace_sink is not None:
                    _trace(node, grads, (), len(t._hooks or ()))
                continue
            nexts = node.next_functions
            if node._pre_hooks and node._pre_hooks.get(-1) and (
                    targets is None or accumulate and node in targets
                    or any(nx is not None and nx in needed for nx, _ in nexts)):
                # Node.register_prehook: after tensor hooks and retain_grad, as PyTorch orders them, and only
                # for a node that runs (not one autograd.grad only captures)
                grads = _call_node_pre_hooks(node, grads)
            if arrival_sink is not None and (targets is None or accumulate and node in targets
                                             or any(nx is not None and nx in needed for nx, _ in nexts)):
                arrival_sink(node, grads)  # what a Node.register_prehook hook sees, before the node runs
            if (grads[0] is None if node.num_outputs == 1 else all(g is None for g in grads)) \
                    and not getattr(node, "_call_with_undefined", False):
                # no gradient arrived (a custom Function's backward still runs: PyTorch materializes zeros)
                outs = (None,) * len(nexts)
                if targets is None or any(nx is not None and nx in needed for nx, _ in nexts):
                    _call_idle(node, retain_graph)  # PyTorch still calls it
                    if node._hooks:
                        outs = _call_post_hooks(node, outs, grads)
            else:
                full = node._needs
                if len(full) != len(nexts):
                    full = node._needs = tuple([nx is not None for nx, _ in nexts])
                if targets is not None:
                    restricted = tuple([nx is not None and nx in needed for nx, _ in nexts])
                    if not any(restricted):
                        outs = (None,) * len(nexts)  # only a capture target: nothing beyond it is needed
                        full = None
                        if accumulate and node in targets:
                            # backward(inputs=[non-leaf]): PyTorch marks the input's grad_fn needed and calls it
                            _call_idle(node, retain_graph)
                    else:
                        node._needs = restricted
                if full is None:
                    pass
                elif hooks_used[0] and node._saved and node._unpacks_up_front:
                    outs = _apply_hooked(node, grads, anomaly.enabled, full if targets is not None else None)
                elif targets is None:
                    outs = _anomaly.apply_checked(node, grads) if anomaly.enabled else node.apply(grads)
                else:
                    try:
                        outs = _anomaly.apply_checked(node, grads) if anomaly.enabled else node.apply(grads)
                    finally:
                        node._needs = full
                if full is not None:
                    if node.num_outputs == 1 and grads[0] is not None and grads[0]._zero:
                        outs = _zt.propagate(node, grads[0], outs)
                    if not retain_graph:
                        node._release()
                    if node._hooks:
                        outs = _call_post_hooks(node, outs, grads)
            if trace_sink is not None:
                _trace(node, grads, outs, sum(len(h) for h in (node._pre_hooks or {}).values()))
            meta = node._meta
            for i, (nx, nr) in enumerate(nexts):
                if nx is None or targets is not None and nx not in needed:
                    continue
                g = outs[i]
                if g is not None:
                    shape, dtype = meta[i]
                    if g._data.shape != shape or g._dtype is not dtype:
                        g = _reduce_to(g, shape, dtype, node, i)
                    buf = buffers.get(nx)
                    if buf is None:
                        buf = buffers[nx] = [None] * nx.num_outputs
                    cur = buf[nr]
                    if cur is None:
                        buf[nr] = g
                    elif create_graph:
                        buf[nr] = cur + g
                        if cur._zero and g._zero:
                            buf[nr]._zero = True
                    elif id(cur) in owned:
                        np.add(cur._data, g._data, out=cur._data)  # a sum the engine made: add in place
                        cur._zero = cur._zero and g._zero
                    else:
                        # the first gradient may be shared (AddBackward0 hands one tensor to both inputs): copy once
                        zero = cur._zero and g._zero  # a sum of ZeroTensors is one
                        cur = buf[nr] = Tensor._from_data(np.asarray(np.add(cur._data, g._data)), cur._dtype)
                        cur._zero = zero
                        owned[id(cur)] = cur
                left = deps[nx] - 1
                deps[nx] = left
                if left == 0:
                    if ready is None and not heap:
                        ready = nx
                    else:
                        if ready is not None:  # two ready nodes: the heap orders them
                            k = -ready._seq if type(ready._seq) is int else _ready_key(ready, ties)
                            heappush(heap, k)
                            waiting[k] = ready
                            ready = None
                        k = -nx._seq if type(nx._seq) is int else _ready_key(nx, ties)
                        heappush(heap, k)
                        waiting[k] = nx
    finally:
        _tasks.pop()
        mode.enabled, mode.inference = prev


def backward(tensors, grad_tensors=None, retain_graph: Optional[bool] = None, create_graph: bool = False,
             inputs=None) -> None:
    """torch.autograd.backward: accumulate d(tensors)/d(leaves) into ``.grad``.

    tensors: a Tensor or a sequence; grad_tensors: matching gradients (None
    for scalar roots); inputs: restrict accumulation to these tensors (leaves
    or non-leaves; non-leaves then retain their grad).  Raises grad_shape,
    non_scalar_backward, no_grad_fn, second_backward, inplace_modified.
    """
    outputs = _as_list(tensors)
    grads = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(outputs)
    if isinstance(grad_tensors, Tensor):
        grads = [grad_tensors]
    if len(grads) != len(outputs):
        raise error_class("runtime")(f"grad can be implicitly created only for scalar outputs"
                                     if not grads else
                                     f"got {len(grads)} gradients for {len(outputs)} tensors")
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        inputs = _as_list(inputs)
        if not inputs:
            raise error_class("runtime")("'inputs' argument to backward() cannot be empty.")
    grads = _make_grads(outputs, grads)
    roots = _root_edges(outputs)
    targets = None
    if inputs is not None:
        targets = set()
        for t in inputs:
            if not isinstance(t, Tensor):  # PyTorch's run_backward (python_engine.cpp): a RuntimeError
                raise error_class("runtime")(
                    f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
            t.retain_grad()  # first, as PyTorch (run_backward): retain_grad_no_grad before input_no_grad
            if not t.requires_grad:
                raise error_class("input_no_grad")("One of the differentiated Tensors does not require grad")
            targets.add(_input_target(t)[0])
    # after the checks of the inputs: PyTorch warns in Engine::execute (engine.cpp)
    if create_graph and not _warned_create_graph[0]:
        _warned_create_graph[0] = True
        warn("create_graph_cycle",
             "Using backward() with create_graph=True will create a reference cycle between the parameter and "
             "its gradient which can cause a memory leak. Prefer torch.autograd.grad when creating the graph.")
    _log_call("backward", roots, inputs, retain_graph, grad_tensors is not None)
    if observers:
        for ob in list(observers):
            ob("before", outputs, grads, inputs)
    _execute(roots, grads, retain_graph=retain_graph, create_graph=create_graph, targets=targets,
             captures=None, accumulate=True)
    if observers:
        for ob in list(observers):
            ob("after", outputs, grads, inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph: Optional[bool] = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: Optional[bool] = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple:
    """torch.autograd.grad: the gradients of ``outputs`` w.r.t. ``inputs``, without touching ``.grad``.

    Returns a tuple with one Tensor (or None with allow_unused) per input.
    Raises input_no_grad, unused_input, and the errors of :func:`backward`.
    """
    outs = _as_list(outputs)
    if inputs is None:  # PyTorch: tuple(inputs)
        raise ArgumentTypeError("'NoneType' object is not iterable")
    ins_was_tensor = isinstance(inputs, Tensor)
    ins = _as_list(inputs)
    gouts = _as_list(grad_outputs) if grad_outputs is not None else [None] * len(outs)
    if len(gouts) != len(outs):
        raise error_class("runtime")(
            f"grad_outputs has {len(gouts)} tensors but outputs has {len(outs)}")
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    gouts = _make_grads(outs, gouts)
    roots = _root_edges(outs)
    captures: dict = {}
    targets = set()
    for t in ins:
        if not isinstance(t, Tensor):
            raise error_class("runtime")(  # PyTorch's run_backward (python_engine.cpp): a RuntimeError
                f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
        if not t.requires_grad:  # (a view made under no_grad requires grad, and is then simply unused)
            raise error_class("input_no_grad")("One of the differentiated Tensors does not require grad")
        edge = _input_target(t)
        captures.setdefault(edge, [None])
        targets.add(edge[0])
    _log_call("grad", roots, ins, retain_graph, grad_outputs is not None)
    _execute(roots, gouts, retain_graph=retain_graph, create_graph=create_graph, targets=targets,
             captures=captures, accumulate=False)
    result = []
    for index, t in enumerate(ins):
        g = captures[_input_target(t)][0]
        if g is None:
            if materialize_grads:
                from ..ops.creation import zeros_like

                g = zeros_like(t)
            elif not allow_unused:
                raise error_class("unused_input")(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.",
                    torch_message=torch_text("unused_input", index=index),
                )
        elif not create_graph:
            g = Tensor._from_data(g._data, g._dtype) if g._requires_grad else g
        result.append(g)
    del ins_was_tensor
    return tuple(result)


def _unused(x: Sequence) -> None:  # pragma: no cover
    return None
