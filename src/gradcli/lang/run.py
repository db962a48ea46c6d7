"""``run_file``: the one entry point that runs an expression file (what the CLI calls).

It implements exactly the reference oracle's semantics
(``conformance/tools/torch_run.py`` and ``conformance/README.md``):

1. parse (:mod:`.parse`) and check (:mod:`.validate`) the whole file; a
   ``syntax``/``unsupported``/``limit`` error there ends the run before anything
   runs;
2. compile the tree to closures (:mod:`.interpreter`);
3. reset the engine's global state, then ``--dtype``, then the seed
   (``manual_seed(options.seed)``), then the ``--set`` bindings: a number (not a
   bool) or nested list -> ``torch.tensor(VALUE, dtype=<default dtype>)``,
   anything else an expression *of the language* (never ``eval``); a bad
   ``--set`` raises :class:`InvocationError` (exit 2);
   ``--requires-grad``/``--retain-grad`` apply to ``--set`` names at binding; then the *free inputs*
   (:mod:`.inputs`: names the file reads but never binds, named by ``--requires-grad``,
   ``--retain-grad`` or ``--inputs`` and not by ``--set``) are bound as ``torch.tensor(1.0)`` and
   flagged likewise (``RunResult.inputs`` lists both kinds);
4. run the file body (inside ``torch.no_grad()`` with ``--no-grad``), with
   ``NAME.requires_grad_()`` / ``NAME.retain_grad()`` after every assignment
   statement binding a ``--requires-grad``/``--retain-grad`` NAME (in ``def``
   bodies too) and, for the default backward, tracking of the last tensor bound
   by a top-level assignment statement;
5. the backward gradcli runs after the file: ``--backward NAME``, or the default
   one (no ``.backward(``/``torch.autograd.backward``/``torch.autograd.grad``
   call in the file, a tracked target that requires grad), with ``--gradient``
   (``ones``, number/list -> ``torch.tensor(v, dtype=target.dtype)`` for a
   floating target, else an expression evaluated in the file's namespace),
   ``--inputs``, ``--retain-graph``, ``--create-graph``, ``--repeat N``.  Its
   errors have no position unless raised inside the file's own code (a hook); what ran is
   ``RunResult.backward``;
6. collect: stdout (the file's ``print``, never the real stdout), warnings
   (once per (kind, line), line of the innermost running statement), the error,
   and every top-level name bound to a tensor, in order of first binding.

Global engine state (default dtype, grad mode, generator, element limit,
warning sink, recursion limit) is reset before and after each run, so many
runs in one process are independent.  Exceptions that are not
``GradcliError``s (bugs in gradcli) propagate unchanged after the reset.

Isolation of a run (issue 8, SECURITY.md): steps 2-6 run on a long-lived
worker thread with a large C stack (:func:`run_on_worker`; deep C recursion on
the program's data is an error, not a segmentation fault), which the caller
abandons at ``--timeout`` + :data:`HARD_GRACE` if one engine operation outlasts
the run's own clock checks; the engine's element, live-memory (``--max-memory``)
and clock checks are wired to the run's budget, with ``RLIMIT_DATA`` as the
kernel-enforced backstop (:class:`_DataLimit`); Python warnings of numpy never
reach stderr; messages, warnings, static problems and ``--trace`` are capped
(:func:`clip`), so what a file makes gradcli show stays small.
"""

from __future__ import annotations

import ast
import contextvars
import importlib
import keyword
import queue
import re
import sys
import gc
import threading
import time
import warnings
from typing import Any, Callable, Optional, Union

from ..autograd import malloc as _malloc
from ..errors import GradcliError, error_class, set_warning_sink
from . import errmap
from .access import get_attr
from .inputs import free_input_names, free_names
from .interpreter import Interpreter, position, required_recursion_limit, set_recursion_limit
from .limits import (DEFAULT_LIMITS, EXPIRED, EXPIRED_AT, ON_POSITION, Limits, command_deadline, limit_error,
                     timeout_message)
from .parse import ParsedSource, decode_source, parse_expression, parse_source
from .result import ErrorRecord, RunOptions, RunResult, WarningRecord
from .validate import check, has_backward_call, validate

__all__ = ["run_file", "run_prepared", "InvocationError", "prepare", "PRELUDE_NAMES"]

#: names of the implicit prelude (never listed as the file's tensors, as in the oracle)
PRELUDE_NAMES = frozenset({"torch", "F"})

_malloc.tune()  # before the worker thread's first allocation (autograd/malloc.py: large arrays reuse memory)

_OBJ_ADDR = re.compile(r" at 0x[0-9a-fA-F]+>")  # "<... object at 0x7f..>" -> "<... object>": stable output


class InvocationError(Exception):
    """The invocation was wrong (exit status 2), e.g. a bad ``--set NAME=VALUE``."""


# ---------------------------------------------------------------------------------------------
# engine access (lazy: importing gradcli.lang must not import the engine's heavy parts)
# ---------------------------------------------------------------------------------------------
def _engine_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _make_globals() -> dict:
    from ..api import make_globals  # the engine's torch-shaped namespaces

    return dict(make_globals())


def _tensor_type() -> type:
    from ..autograd.tensor import Tensor

    return Tensor


# engine modules whose reset() restores PyTorch's start-up state (any that exist are reset)
_RESETTABLE = ("grad_mode", "engine", "anomaly", "tensor")


class _EngineState:
    """Reset/restore of the engine's process-global state around one run."""

    def __init__(self, options: RunOptions, limits: Limits) -> None:
        self.options = options
        self.limits = limits
        self.dtypes = _engine_module("gradcli.autograd.dtypes")
        self.random = _engine_module("gradcli.autograd.random")
        self.elimits = _engine_module("gradcli.autograd.limits")
        # modules with process-global state and a reset() (grad modes, once-per-process warnings, anomaly mode)
        self.resettable = [
            m for m in (_engine_module(f"gradcli.autograd.{n}") for n in _RESETTABLE) if m is not None
        ]

    def reset(self, start: bool = True) -> None:
        """PyTorch's start-up state: float32, grad on, no anomaly mode...; and this run's element limit.
        start: a run begins (its memory zero is taken: ``limits.start_run``); False after a run (restore)."""
        for mod in self.resettable:
            reset = getattr(mod, "reset", None)
            if callable(reset):
                reset()
        nn_module = sys.modules.get("gradcli.nn.module")
        if nn_module is not None:  # the previous run's module calls
            nn_module.reset()
        func_levels = sys.modules.get("gradcli.func.levels")
        if func_levels is not None:  # torch.func levels an abandoned run left open
            func_levels.reset()
        batching = sys.modules.get("gradcli.autograd.batching")
        if batching is not None:  # (and a vmap's)
            batching.reset()
        if self.dtypes is not None:
            self.dtypes.set_default_dtype(self.dtypes.float32)
        printing = sys.modules.get("gradcli.autograd.printing")
        if printing is not None:  # torch.set_printoptions lasts for its run only
            printing.OPTS.reset()
        if self.elimits is not None and hasattr(self.elimits, "set_max_elements"):
            self.elimits.set_max_elements(self.limits.max_elements)
        if self.elimits is not None and hasattr(self.elimits, "set_max_bytes"):
            self.elimits.set_max_bytes(self.limits.max_memory)
            if start:
                self.elimits.start_run()

    def start(self) -> None:
        """``--dtype`` then the seed, as the oracle does; a bad value is an InvocationError (exit 2)."""
        try:
            if self.options.dtype:
                self.dtypes.set_default_dtype(self.dtypes.by_name(self.options.dtype))
        except Exception as e:
            raise InvocationError(f"bad --dtype {self.options.dtype}: {getattr(e, 'message', e)}") from None
        if getattr(self.options, "detect_anomaly", False):
            anomaly = _engine_module("gradcli.autograd.anomaly")
            if anomaly is not None:  # as torch.autograd.set_detect_anomaly(True) before the file, silently
                anomaly.set_anomaly_enabled(True, True)
        seed = getattr(self.random, "manual_seed", None) if self.random is not None else None
        if seed is not None:
            try:
                seed(self.options.seed)
            except Exception as e:
                raise InvocationError(f"bad --seed {self.options.seed}: {getattr(e, 'message', e)}") from None

    def restore(self) -> None:
        self.reset(start=False)  # (the next run takes its own memory zero)
        if self.elimits is not None and hasattr(self.elimits, "set_max_elements"):
            self.elimits.set_max_elements(None)
        if self.elimits is not None and hasattr(self.elimits, "set_max_bytes"):
            self.elimits.set_max_bytes(None)
            self.elimits.on_check[0] = None
        if self.elimits is not None and hasattr(self.elimits, "on_build"):
            self.elimits.on_build[0] = None

    def watch(self, budget: Any) -> None:
        """The engine's memory check runs with the budget's clock check; the budget's clock check runs
        every few hundred backward nodes (a long backward pass stops at --timeout too)."""
        if self.elimits is not None and hasattr(self.elimits, "on_check"):
            self.elimits.on_check[0] = budget.check_time
            budget.watch_memory(self.elimits.check_memory)
        if self.elimits is not None and hasattr(self.elimits, "on_build"):
            def build(n: int, what: str, check=budget.check_size, charge=budget.charge) -> None:
                if what == "tensors":  # a tensor per item costs a step, like a loop iteration making it
                    check(n, "list of tensors")
                    charge(n)
                else:
                    check(n, what)

            self.elimits.on_build[0] = build


#: address space a run may add beyond --max-memory before the kernel refuses it (numpy temporaries,
#: BLAS buffers, the interpreter's own needs)
DATA_HEADROOM = 1 << 30


class _DataLimit:
    """The kernel-enforced backstop of --max-memory: ``RLIMIT_DATA`` = the process's data size now +
    ``max_memory`` + :data:`DATA_HEADROOM`, for the run's duration (restored after).

    What the explicit checks cannot see before it happens -- a broadcast of two small tensors into a
    huge one, a numpy temporary -- then fails to allocate (a MemoryError: kind ``limit``) instead of
    filling the machine's memory.  Linux only (``/proc/self/status``); elsewhere it does nothing.
    """

    def __init__(self, max_memory: int) -> None:
        self.max_memory = max_memory
        self.old: Optional[tuple] = None

    def __enter__(self) -> "_DataLimit":
        try:
            import resource

            with open("/proc/self/status", "rb") as fh:
                data_kb = next(int(line.split()[1]) for line in fh if line.startswith(b"VmData:"))
            soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
            want = min(data_kb * 1024 + self.max_memory + DATA_HEADROOM, (1 << 63) - 1)
            if hard != resource.RLIM_INFINITY:
                want = min(want, hard)
            if soft != resource.RLIM_INFINITY and soft <= want:
                return self
            resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
            self.old = (soft, hard)
        except (ImportError, OSError, ValueError, OverflowError, StopIteration):
            self.old = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.old is not None:
            import resource

            try:
                resource.setrlimit(resource.RLIMIT_DATA, self.old)
            except (OSError, ValueError):  # pragma: no cover - raising back to the old soft limit
                pass
            self.old = None


# ---------------------------------------------------------------------------------------------
# command-line values
# ---------------------------------------------------------------------------------------------
_NOLIT = object()


def _literal(tree: ast.Expression) -> Any:
    try:
        return ast.literal_eval(tree.body)
    except Exception:
        return _NOLIT


def _is_num_or_list(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float, list))


def _call(obj: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    return get_attr(obj, name)(*args, **kwargs)


class _Runner:
    """The state of one run_file call."""

    def __init__(self, parsed: ParsedSource, options: RunOptions, limits: Limits) -> None:
        self.parsed = parsed
        self.options = options
        self.limits = limits
        self.warnings: list[WarningRecord] = []
        self.seen: set = set()
        self.inputs: list[dict] = []  # names bound before the file: --set and free inputs (RunResult.inputs)
        self.backward: Optional[dict] = None  # the backward gradcli ran after the file (RunResult.backward)
        self.whole = False  # stopped by the command's clock (--timeout bounds the whole command)

    # warnings: once per (kind, line), at the innermost running statement
    def sink(self, kind: str, message: str) -> None:
        loc = position.loc
        line, col = (None, None) if loc is None else loc
        key = (kind, line)
        if key in self.seen:
            return
        self.seen.add(key)
        if len(self.warnings) >= MAX_WARNINGS:
            if len(self.warnings) == MAX_WARNINGS:
                self.warnings.append(WarningRecord("other", f"more warnings were given; only the first "
                                                   f"{MAX_WARNINGS:,} are recorded", None, None, None))
            return
        self.warnings.append(WarningRecord(kind, clip(message), line, col, self.parsed.source_line(line)))

    def cli_value(self, text: str, like: Any = None) -> Any:
        """A --set (like=None) or --gradient value; raises GradcliError (Python errors converted).

        A --gradient that is not an expression of the language at all (a syntax or unsupported error)
        is an InvocationError, like a bad --set; its other errors (a wrong shape ...) are the run's, and
        have no position in the file (the value is not in the file)."""
        try:
            return self._cli_value(text, like)
        except GradcliError as e:
            if like is not None and e.kind in ("syntax", "unsupported"):
                raise InvocationError(f"bad --gradient {text}: {e.message}") from e
            if like is not None and not e.frames:  # not raised inside the file's own code (a hook)
                e.line = e.col = None
            raise
        except Exception as e:
            raise errmap.convert(e)

    def _cli_value(self, text: str, like: Any) -> Any:
        torch = self.prelude["torch"]
        if like is not None and text.strip() == "ones":
            return _call(torch, "ones_like", like)
        tree = parse_expression(text, self.limits)
        lit = _literal(tree)
        if lit is not _NOLIT and _is_num_or_list(lit):
            if like is None:
                return _call(torch, "tensor", lit, dtype=self.dtypes.get_default_dtype())
            if like.dtype.is_floating_point or getattr(like.dtype, "is_complex", False):
                return _call(torch, "tensor", lit, dtype=like.dtype)
            return _call(torch, "tensor", lit)
        check(tree, extra_names=self.g.keys())
        return self.interp.compile_expression(tree, positions=False)()

    def run(self, result: RunResult) -> None:
        options = self.options
        self.dtypes = importlib.import_module("gradcli.autograd.dtypes")
        _quiet_numpy()  # the engine's np.seterr(all="ignore") is per thread (a context variable)
        self.Tensor = _tensor_type()
        state = _EngineState(options, self.limits)
        tree = self.parsed.tree
        self.free = free_names(tree)
        explicit_backward = has_backward_call(tree)
        track = None if (options.backward or explicit_backward) else self.Tensor

        state.reset()
        self.g = g = _make_globals()
        self.prelude = dict(g)
        interp = Interpreter(
            g,
            self.limits,
            requires_grad=tuple(options.requires_grad),
            retain_grad=tuple(options.retain_grad),
            track=track,
            prelude=self.prelude,
        )
        self.interp = interp
        size_type = getattr(importlib.import_module("gradcli.autograd.tensor"), "Size", None)
        if size_type is not None:  # torch.Size(iterable) builds a tuple in C: sized and charged as tuple() is
            as_tuple = interp.overrides[tuple]
            interp.overrides[size_type] = lambda items=(), _S=size_type, _t=as_tuple: _S(_t(items))
        old_sink = set_warning_sink(self.sink)
        old_recursion = set_recursion_limit(required_recursion_limit(self.parsed.depth, self.limits))
        position.loc = None
        state.watch(interp.budget)
        try:
            # Python warnings of numpy/the engine (ComplexWarning ...) never reach the real stderr: gradcli's
            # own warnings go through errors.warn; one run at a time, so the global filter is fine here
            with interp, _DataLimit(self.limits.max_memory), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    body = interp.compile_module(tree)
                except GradcliError as e:  # a construct the compiler refuses (validate should have)
                    result.error = self.error_record(e)
                    result.ok = False
                    return
                state.start()
                engine = importlib.import_module("gradcli.autograd.engine")
                if options.trace:
                    engine.trace_sink = self.trace_events = _TraceEvents(MAX_TRACE)
                elif options.values:
                    self.value_log = _install_value_log(engine)
                try:
                    self.bind_sets()
                    self.run_body(body)
                    position.loc = None
                    self.after_backward(explicit_backward)
                except GradcliError as e:
                    result.error = self.error_record(e)
                    result.ok = False
        finally:
            position.loc = None
            set_warning_sink(old_sink)
            _restore_recursion(old_recursion)
            result.logs = _engine_logs()  # for the explainers (app/why.py), before the reset clears them
            if getattr(self, "value_log", None) is not None:
                result.logs["values"] = self.value_log
                _remove_value_log()
            result.forward_nonfinite = result.logs.pop("nonfinite", None)
            if result.error is not None and result.forward_nonfinite:
                _link_forward_origin(result.error, result.forward_nonfinite)
            state.restore()
            result.stdout = _OBJ_ADDR.sub(">", interp.out.getvalue())
            result.warnings = self.warnings
            result.inputs = self.inputs
            result.backward = self.backward
            result.free_names = sorted(self.free)
            result.namespace = g
            result.tensors = self.tensors()
            if options.trace:
                events = getattr(self, "trace_events", [])
                result.trace_nodes = [(ev.get("grad_fn"), [nx for nx, _ in ev.get("grad_out", ())]) for ev in events]
                result.trace = _name_trace(events, result.tensors, options.dtype or "float32")
                if getattr(events, "dropped", 0):
                    result.trace.append({"step": "...", "node": f"{events.dropped:,} more nodes ran; --trace records "
                                                                 f"the first {MAX_TRACE:,}"})

    def stopped(self, result: RunResult) -> None:
        """The result of a run still busy at its hard deadline (called from the waiting thread)."""
        loc = position.loc
        line, col = (None, None) if loc is None else loc
        whole = getattr(self, "whole", False)
        err = limit_error(timeout_message(self.limits.timeout, whole, inside=True), "timeout", line=line, col=col)
        if line is not None:
            err.frames.append((line, col if col is not None else 0))
        result.ok = False
        result.error = self.error_record(err)
        interp = getattr(self, "interp", None)
        result.stdout = _OBJ_ADDR.sub(">", interp.out.getvalue()) if interp is not None else ""
        result.warnings = list(self.warnings)
        result.tensors = []
        result.namespace = {}

    def bind_sets(self) -> None:
        g = self.g
        for name, text in self.options.sets:
            name = name.strip()
            try:
                value = self.cli_value(text)
            except GradcliError as e:
                raise InvocationError(f"bad --set {name}={text}: {e.message}") from e
            g[name] = value
            self.flag(name, value)
            self.inputs.append({"name": name, "source": "--set", "text": text})
        # free inputs (SPEC §3 --requires-grad): a name the file reads but never binds, named by
        # --requires-grad, --retain-grad or --inputs and not by --set, is bound first as torch.tensor(1.0)
        for name in free_input_names(self.options, self.free):
            if name in g:
                continue
            value = _call(self.prelude["torch"], "tensor", 1.0)
            g[name] = value
            self.flag(name, value)
            self.inputs.append({"name": name, "source": "free", "text": "torch.tensor(1.0)"})

    def flag(self, name: str, value: Any) -> None:
        """``--requires-grad`` / ``--retain-grad`` of a name bound before the file."""
        try:
            if name in self.options.requires_grad:
                _call(value, "requires_grad_")
            if name in self.options.retain_grad:
                _call(value, "retain_grad")
        except Exception as e:
            raise errmap.convert(e)

    def run_body(self, body: Callable[[], None]) -> None:
        if not self.options.no_grad or not self.parsed.tree.body:
            body()
            return
        mgr = _call(self.prelude["torch"], "no_grad")
        type(mgr).__enter__(mgr)
        try:
            body()
        finally:
            type(mgr).__exit__(mgr, None, None, None)

    def after_backward(self, explicit_backward: bool) -> None:
        options, g = self.options, self.g
        target = name = None
        if options.backward:
            name = options.backward
            if name not in g:
                raise error_class("name")(f"name '{name}' is not defined",
                                          "--backward names a tensor the file binds at top level.")
            target = g[name]
            if not isinstance(target, self.Tensor):
                raise error_class("type")(f"--backward {name}: not a tensor (it is a {type(target).__name__})")
        elif not explicit_backward and self.interp.tracked is not None:
            name, target = self.interp.tracked
            if not target.requires_grad:
                target = None
        if target is None:
            return
        self.backward = None if options.repeat <= 0 else {
            "target": name, "implicit": not options.backward,
            "options": {"gradient": options.gradient, "inputs": list(options.inputs) if options.inputs else None,
                        "retain_graph": bool(options.retain_graph), "create_graph": bool(options.create_graph),
                        "repeat": int(options.repeat)},
        }
        kw: dict = {}
        if options.gradient is not None:
            kw["gradient"] = self.cli_value(options.gradient, like=target)
        if options.retain_graph:
            kw["retain_graph"] = True
        if options.create_graph:
            kw["create_graph"] = True
        if options.inputs:
            names = [n.strip() for n in options.inputs if n.strip()]
            for n in names:
                if n not in g:
                    raise error_class("name")(f"name '{n}' is not defined",
                                              "--inputs lists tensors the file binds, or names it reads but never binds.")
            kw["inputs"] = [g[n] for n in names]
        budget = self.interp.budget
        for _ in range(max(0, options.repeat)):
            budget.charge(1)  # each repetition is a step: --repeat 10**9 ends at --max-steps / --timeout
            try:
                target.backward(**kw)
            except GradcliError:
                raise
            except Exception as e:
                raise errmap.convert(e)

    def error_record(self, e: GradcliError) -> ErrorRecord:
        torch_message = e.torch_message
        rec = ErrorRecord(
            kind=e.kind,
            message=clip(e.message),
            hint=clip(e.hint or ""),
            torch_message=None if torch_message is None else clip(torch_message),
            line=e.line,
            col=e.col,
            source_line=self.parsed.source_line(e.line),
            frames=list(e.frames),
            related=list(getattr(e, "related", []) or []),
            facts=getattr(e, "facts", None),
        )
        return rec

    def tensors(self) -> list[tuple[str, Any]]:
        """Every top-level name bound to a tensor, in binding order; a top-level ``nn.Module`` adds its
        parameters right after its place, named ``NAME.PARAM`` as ``named_parameters()`` names them (SPEC §2b)."""
        g = getattr(self, "g", None)
        if g is None:
            return []
        T = self.Tensor
        nn_module = sys.modules.get("gradcli.nn.module")  # no module can exist unless torch.nn was used
        Module = getattr(nn_module, "Module", None)
        out: list = []
        for n, v in g.items():
            if n in PRELUDE_NAMES or (n.startswith("__") and n.endswith("__")):  # as the oracle: `___` too
                continue
            if isinstance(v, T):
                if not _uninitialized(v):
                    out.append((n, v))
            elif Module is not None and isinstance(v, Module):
                try:
                    out.extend((f"{n}.{pn}", p) for pn, p in v.named_parameters() if not _uninitialized(p))
                except Exception:  # noqa: BLE001 - a module the file left broken lists nothing
                    continue
        return out


def _uninitialized(t: Any) -> bool:
    """A lazy module's parameter before its first call (nn.UninitializedParameter): no shape, no value, so
    no row (PyTorch raises on reading its shape)."""
    return getattr(type(t), "_gradcli_uninitialized", False)


# ---------------------------------------------------------------------------------------------
# the worker thread: a big C stack and a hard deadline
# ---------------------------------------------------------------------------------------------
#: seconds past ``--timeout`` after which the caller stops waiting for a run stuck in one long operation
HARD_GRACE = 0.9
_MiB = 1 << 20
#: a thread still running after its hard deadline; the next run waits for it (engine state is global)
_ZOMBIES: list = []
#: net new GC-tracked objects a run leaves above which they are frozen (gc.freeze) when it ends
_FREEZE_AFTER = 50_000


#: C stack a run's thread gets per allowed step: a tuple nesting level costs at least one step
#: (Compiler._charged_display) and hashing it takes 65-72 bytes of C stack in CPython 3.11 (measured;
#: tests/lang/test_limits.py checks the margin)
STACK_PER_STEP = 128


def worker_stack_bytes(limits: Limits) -> int:
    """The C stack a run's thread gets (reserved address space; only the pages a run touches are used).

    CPython recurses in C on the program's own data: ``repr``/``==`` of nested lists and dicts (bounded by
    the recursion limit, which deep programs raise up to ~44,000) and tuple hashing (not bounded at all in
    CPython 3.11: one level per nesting, and a nesting costs a step).  The main thread's 8 MiB would
    overflow -- a segmentation fault, not an error -- so a run gets 256 MiB plus :data:`STACK_PER_STEP`
    bytes per allowed step, at most 4 GiB: 1.45 GiB with the default step budget.  Past 4 GiB (a
    ``--max-steps`` above 31 million) a crash of the run is still reported, not silent: the command's
    watchdog process (app/watchdog.py) turns it into an error panel.
    """
    n = 256 * _MiB + STACK_PER_STEP * max(0, int(limits.max_steps))
    return min(4096 * _MiB, -(-n // _MiB) * _MiB)


def _quiet_numpy() -> None:
    np = sys.modules.get("numpy")
    if np is not None:
        np.seterr(all="ignore")


def _start_thread(target: Callable[[], None], stack: int) -> Optional[threading.Thread]:
    """A started daemon thread with (at most) ``stack`` bytes of stack, or None if none can be made."""
    while stack >= 16 * _MiB:
        try:
            old = threading.stack_size(stack)
        except (ValueError, RuntimeError):
            stack //= 2
            continue
        try:
            t = threading.Thread(target=target, name="gradcli-run", daemon=True)
            t.start()
            return t
        except RuntimeError:  # cannot reserve that much address space here: try less
            stack //= 2
        finally:
            threading.stack_size(old)
    return None


class _Worker:
    """A long-lived daemon thread with a big stack that runs one run at a time (``submit``).

    Reused across runs: starting a thread with a large stack costs milliseconds per run in a busy process.
    A worker still busy at a run's hard deadline is retired (the next run waits for it, then uses a
    fresh worker).
    """

    def __init__(self, stack: int) -> None:
        self.stack = stack
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.idle = threading.Event()
        self.idle.set()
        self.thread = _start_thread(self._loop, stack)

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                job()
            finally:
                self.idle.set()

    def submit(self, job: Callable[[], None]) -> threading.Event:
        """Run ``job`` on this thread; the returned event is set when it is done."""
        done = threading.Event()

        def wrapped() -> None:
            try:
                job()
            except BaseException as e:  # noqa: BLE001 - a bug outside the job's own guard (its cleanup):
                done.error = e  # type: ignore[attr-defined] - re-raised by the caller (exit 70), not printed
            finally:
                done.set()

        self.idle.clear()
        self.jobs.put(wrapped)
        return done


_WORKERS: dict = {}  # stack size -> idle-or-running _Worker


def _worker(stack: int) -> Optional[_Worker]:
    w = _WORKERS.get(stack)
    if w is None or w.thread is None or not w.thread.is_alive():
        w = _Worker(stack)
        if w.thread is None:
            return None
        _WORKERS[stack] = w
    return w


def run_on_worker(runner: "_Runner", result: RunResult) -> None:
    """``runner.run(result)`` on a thread with a big C stack (see :func:`worker_stack_bytes`).

    The caller waits at most ``--timeout`` + :data:`HARD_GRACE` seconds: the run's own budget stops it at
    the time limit between two steps, but one engine operation (a huge matmul) can outlast it.  Then the
    result is a ``limit`` error at the running line, without tensors (the worker still owns them), and the
    worker is left to finish in the background; the next run in this process waits for it first.
    Exceptions of the run (InvocationError, bugs) are re-raised here unchanged.
    """
    if EXPIRED[0]:  # the command's watchdog process ended the command: report the run as stopped
        position.loc = EXPIRED_AT[0]
        runner.stopped(result)
        return
    while _ZOMBIES:
        _ZOMBIES.pop().idle.wait()
    box: dict = {}
    ctx = contextvars.copy_context()

    def target() -> None:
        # the engine's graphs are acyclic (freed by reference counting): the cyclic collector would only
        # re-walk the growing graph (about 20% of a long chain's time, measured), so it pauses during a run
        gc_on = gc.isenabled()
        gc.disable()
        if gc.get_freeze_count():
            gc.unfreeze()  # a previous big run's objects: collectable again once this run ends
        try:
            ctx.run(runner.run, result)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["exc"] = e
        finally:
            if gc_on:
                if gc.get_count()[0] > _FREEZE_AFTER:
                    # everything a big run made sits in the youngest generation: the first collection
                    # after enable() would walk the whole surviving graph (0.15 s of a 100k-op chain,
                    # 4 s of a 1M one, measured); frozen, only reference counting frees it (acyclic)
                    gc.freeze()
                gc.enable()

    stack = worker_stack_bytes(runner.limits)
    w = _worker(stack)
    if w is None:  # pragma: no cover - no threads here: run inline, with the main thread's stack
        target()
    else:
        done = w.submit(target)
        deadline = time.monotonic() + runner.limits.timeout
        whole = command_deadline()
        if whole is not None and whole < deadline - 1e-3:
            deadline = whole
            runner.whole = True
        deadline += HARD_GRACE
        try:
            # in short slices: a Ctrl-C delivered to another thread only reaches this one between waits
            note = ON_POSITION[0]
            finished = done.wait(0.05)
            while not finished and time.monotonic() < deadline:
                if note is not None:
                    note(position.loc)
                finished = done.wait(min(0.05 if note is not None else 0.25, max(0.0, deadline - time.monotonic())))
        except BaseException:  # Ctrl-C while waiting: the run goes on in the background; the CLI exits
            finished = False
            raise
        finally:
            if not finished:
                _ZOMBIES.append(w)
                if _WORKERS.get(stack) is w:
                    del _WORKERS[stack]
        if not finished:
            if note is not None:  # where it stopped, for the watchdog, before rendering takes its time
                note(position.loc)
            runner.stopped(result)
            return
        box.setdefault("exc", getattr(done, "error", None))
    exc = box.get("exc")
    if exc is not None:
        raise exc


def _valid_set_name(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("__")


def _install_value_log(engine):
    """graph --values: one ValueLog as the ops' value sink and the engine's trace sink (autograd/values.py)."""
    from ..autograd import graph as _graph
    from ..autograd.values import ValueLog
    from ..ops import _core

    log = ValueLog()
    _core.value_sink = _graph.value_sink = log.on_record
    engine.trace_sink = log
    engine.arrival_sink = log.arrived
    return log


def _remove_value_log() -> None:
    from ..autograd import engine, graph as _graph
    from ..autograd.values import ValueLog
    from ..ops import _core

    _core.value_sink = _graph.value_sink = engine.arrival_sink = None
    if isinstance(engine.trace_sink, ValueLog):
        engine.trace_sink = None


def _engine_logs() -> dict:
    """The engine's records of backward calls, in-place version bumps and module calls during the run
    (app/why.py, app/graph.py)."""
    engine = _engine_module("gradcli.autograd.engine")
    graph = _engine_module("gradcli.autograd.graph")
    anomaly = _engine_module("gradcli.autograd.anomaly")
    nn_module = sys.modules.get("gradcli.nn.module")  # loaded only when the file used torch.nn
    watch = getattr(anomaly, "state", None)
    return {
        # anomaly mode's forward watch: the first NaN / inf a forward op made (None: the watch was never on),
        # and in a forced watch the kept inputs of nodes that can divide by zero
        "nonfinite": None if watch is None or not watch.watched else
        sorted(watch.origins.values(), key=lambda o: (o["line"] is None, o["line"] or 0, o["kind"])),
        "nonfinite_inputs": dict(watch.inputs_of) if watch is not None and watch.forced else {},
        "backward": list(getattr(engine, "backward_log", ()) or ()),
        "inplace": list(getattr(graph, "inplace_log", ()) or ()),
        "modules": [tuple(e) for e in getattr(nn_module, "call_log", ())],
    }


def _link_forward_origin(err: ErrorRecord, origins: list[dict]) -> None:
    """Anomaly mode's NaN error ("Function 'X' returned nan values ...") also names the forward op that made
    the first NaN (or inf) -- PyTorch names only the backward node -- as a ``related`` line."""
    if err.kind != "runtime" or "returned nan values" not in err.message:
        return
    from ..autograd.anomaly import origin_text

    for o in origins:
        if o["line"] is None:
            continue
        role = "first NaN" if o["kind"] == "nan" else "first inf"
        entry = {"role": role, "line": o["line"], "col": o["col"], "text": origin_text(o)}
        if entry not in err.related:
            err.related = list(err.related) + [entry]


def _restore_recursion(old: int) -> None:
    import sys

    try:
        sys.setrecursionlimit(old)
    except RecursionError:  # pragma: no cover - only if called deeper than `old`
        pass


def prepare(source: Union[str, bytes], filename: str, limits: Limits = DEFAULT_LIMITS,
            extra_names: tuple = ()) -> ParsedSource:
    """Parse and check a file; raises GradcliError (syntax/unsupported/limit).  The unknown-API check reads
    gradcli's namespaces, so it imports the engine (not the run's state)."""
    parsed = parse_source(source, filename, limits)
    problems = validate(parsed.tree, extra_names)
    if not problems:  # in the language: now PyTorch API that gradcli does not implement (lang/apicheck.py)
        from .apicheck import api_problems

        problems = api_problems(parsed.tree, extra_names)
    if problems:
        err = problems[0].error()
        err.problems = problems  # type: ignore[attr-defined]
        raise err
    return parsed


#: longest message/hint a record keeps (messages can quote the file's own values: a 10^7-character key)
MAX_MESSAGE = 2000
#: most warnings a run records (one per (kind, line) could still be 10^5 in a 1 MB file)
MAX_WARNINGS = 1000
#: most backward nodes --trace records (each event holds its gradients: a 10^6-node pass would hold them all)
MAX_TRACE = 2000


class _TraceEvents(list):
    """The --trace sink: keeps the first ``cap`` events and counts the rest."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap
        self.dropped = 0

    def append(self, ev: Any) -> None:
        if len(self) < self.cap:
            list.append(self, ev)
        else:
            self.dropped += 1


#: most problems of the static check a record lists (a 1 MB file can hold 10^5 refused constructs)
MAX_PROBLEMS = 100


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text``, cut to ``limit`` characters with a note of how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def _static_error(e: GradcliError, text: Optional[str]) -> ErrorRecord:
    lines = text.splitlines() if text is not None else []
    src = lines[e.line - 1] if e.line is not None and 1 <= e.line <= len(lines) else None
    rec = ErrorRecord(kind=e.kind, message=clip(e.message), hint=clip(e.hint or ""), line=e.line, col=e.col,
                      source_line=src)
    limit = getattr(e, "limit", None)
    if limit is not None:  # which limit stopped the file before it ran (app/render/panels.py)
        rec.facts = {"limit": limit}
    if e.line is not None:
        rec.frames = [(e.line, e.col if e.col is not None else 0)]
    problems = getattr(e, "problems", None)
    if problems:
        rec.problems = [
            {"kind": p.kind, "message": clip(p.message), "line": p.line, "col": p.col} for p in problems[:MAX_PROBLEMS]
        ]
        if len(problems) > MAX_PROBLEMS:
            rest = problems[MAX_PROBLEMS]
            rec.problems.append({"kind": rest.kind, "line": rest.line, "col": rest.col,
                                 "message": f"... and {len(problems) - MAX_PROBLEMS:,} more problems"})
    return rec


def run_file(source: Union[str, bytes], filename: str, options: Optional[RunOptions] = None) -> RunResult:
    """Run an expression file with ``options``; never raises for the file's own errors.

    Returns a :class:`RunResult` (``ok`` False with ``error`` set when the file
    failed).  Raises :class:`InvocationError` for a bad ``--set``; any other
    exception is a bug in gradcli (the CLI maps it to exit status 70).
    """
    options = options if options is not None else RunOptions()
    for name, value in options.sets:  # checked first, as the oracle checks its arguments
        if not _valid_set_name(name.strip()):
            raise InvocationError(f"bad --set {name}={value}: expected NAME=VALUE with a Python name")
    limits = DEFAULT_LIMITS.with_options(options)
    try:
        text: Optional[str] = decode_source(source, limits)
    except GradcliError:
        text = None
    result = RunResult(file=filename, source=text if text is not None else _lossy(source), ok=True, stdout="")
    if EXPIRED[0]:  # rendering the output of a command its watchdog ended: nothing is parsed or run
        at = EXPIRED_AT[0]
        line, col = (None, None) if at is None else at
        err = limit_error(timeout_message(limits.timeout, False, inside=True), "timeout", line=line, col=col)
        result.ok = False
        result.error = _static_error(err, result.source)
        return result
    set_names = tuple(n.strip() for n, _ in options.sets)
    try:
        parsed = prepare(source, filename, limits, set_names)
    except GradcliError as e:
        result.ok = False
        result.error = _static_error(e, text if text is not None else result.source)
        return result
    run_on_worker(_Runner(parsed, options, limits), result)
    return result


def run_prepared(parsed: ParsedSource, options: Optional[RunOptions] = None) -> RunResult:
    """Run a file already parsed and checked by :func:`prepare` (steps 2-6 of :func:`run_file`).

    The execution half of :func:`run_file`, for callers that time execution
    apart from parsing (``benchmarks/run.py``'s engine view).  ``parsed`` must
    come from ``prepare`` with the same limits and ``--set`` names as
    ``options``; same return value and exceptions as :func:`run_file`.
    """
    options = options if options is not None else RunOptions()
    for name, value in options.sets:
        if not _valid_set_name(name.strip()):
            raise InvocationError(f"bad --set {name}={value}: expected NAME=VALUE with a Python name")
    limits = DEFAULT_LIMITS.with_options(options)
    result = RunResult(file=parsed.filename, source=parsed.text, ok=True, stdout="")
    run_on_worker(_Runner(parsed, options, limits), result)
    return result


def _name_trace(events: list, tensors: list, default_dtype: str = "float32") -> list:
    """Label trace events with the file's names: a node by the tensor whose grad_fn it is, an
    AccumulateGrad by its leaf, each outgoing gradient by where it goes; gradients as PyTorch prints them
    (``tensor([3.9000, 1.0000])``, under the run's default dtype)."""
    by_fn = {}
    by_leaf = {}
    for name, t in tensors:
        if t._grad_fn is not None:
            by_fn.setdefault(id(t._grad_fn), name)
        else:
            by_leaf.setdefault(id(t), name)

    def node_label(n) -> str:
        var = getattr(n, "variable", None)
        if var is not None:
            return f"AccumulateGrad({by_leaf.get(id(var), '?')})"
        nm = by_fn.get(id(n))
        return f"{type(n).__name__}({nm})" if nm else type(n).__name__

    out = []
    for ev in events:
        fn = ev.pop("grad_fn", None)
        var = ev.pop("accumulated_into", None)
        if var is not None:
            ev["tensor"] = by_leaf.get(id(var))
            ev["accumulated into"] = f"{by_leaf.get(id(var), '?')}.grad"
        else:
            ev["tensor"] = by_fn.get(id(fn))
        ev["grad_out"] = [_prefixed(f"-> {node_label(nx)}: ", _short(g, default_dtype))
                          for nx, g in ev.get("grad_out", [])]
        ev["grad_in_text"] = [_short(g, default_dtype) for g in ev.get("grad_in", [])]
        out.append(ev)
    return out


def _prefixed(prefix: str, text: str) -> str:
    """``prefix`` before a multi-line text, its other lines indented under the first."""
    lines = text.split("\n")
    return "\n".join([prefix + lines[0]] + [" " * len(prefix) + line for line in lines[1:]])


def _short(g, default_dtype: str = "float32") -> str:
    """A gradient of the trace as PyTorch prints it (its summary beyond 1000 elements included)."""
    if g is None:
        return "None"
    from ..autograd.printing import format_tensor

    try:
        return format_tensor(g._data, g._dtype.name, default_dtype=default_dtype)
    except ValueError:  # a dtype the printer does not know (complex): the values as numpy gives them
        return str(g._data.tolist()) if g._data.size <= 6 else f"shape {list(g._data.shape)}"


def _lossy(source: Union[str, bytes]) -> str:
    if isinstance(source, str):
        return source
    from .parse import source_text

    return source_text(source)
