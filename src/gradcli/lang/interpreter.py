"""The interpreter: compiles a checked ``ast`` into Python closures once, then runs them.

Design
------
Every statement becomes a closure ``s(fr) -> signal`` and every expression a
closure ``e(fr) -> value``, built once per run by :class:`Compiler` (one
recursive pass over a tree whose depth :mod:`gradcli.lang.parse` has bounded).
Execution never looks at the tree again: no per-node dispatch, no dict lookup
of a visitor method, just nested Python calls.  Frames are lists (see
:mod:`gradcli.lang.scope`); module names live in the run's globals dict.
Control flow uses return values, not exceptions: ``None`` (go on),
:data:`BREAK`, :data:`CONTINUE`, or a 1-tuple ``(value,)`` for ``return``.
Hot shapes are specialised at compile time (a name target stored inline in a
``for`` loop, a constant operand inlined into a binary op, blocks of 1-3
statements unrolled), so the interpreter's own cost per simple statement is
a few hundred nanoseconds (see ``benchmarks/interp_loop.py``).

Errors: closures catch exceptions only on the error path (``try`` is free in
CPython >= 3.11) and pass them to :func:`gradcli.lang.errmap.fix`, which maps
Python exceptions to SPEC §4 kinds and stamps the innermost position; call
expressions add their call site to ``err.frames``.  The current position of
the innermost running statement (and of calls/attribute reads on other lines
of a multi-line statement) is kept in :data:`position` for the warning sink.

Safety argument
---------------
User code can only do what a closure built here does, and the closures are
built only for node types :mod:`gradcli.lang.validate` whitelisted (an
unexpected node raises ``unsupported`` here too).  No user text ever reaches
``eval``/``exec``/``compile``: this module never calls them.  The objects user
code can hold are, by induction over the closures:

* constants (int, float, complex, str, bytes, bool, None, Ellipsis) and the
  containers/slices/ranges built from them;
* the builtins of :mod:`gradcli.lang.safe_builtins` (functions of this package,
  the plain types ``int float bool str list tuple dict range`` and the built-in
  exception classes of :mod:`.exceptions`);
* exception objects: what those classes build from the file's values, and what
  an ``except`` handler binds -- a fresh built-in exception holding PyTorch's
  message (:func:`gradcli.lang.exceptions.visible`), never an engine object;
  the gate exposes their ``args`` only;
* the values of the run's globals (``torch``/``F`` namespaces of the engine);
* what the gate :func:`gradcli.lang.access.get_attr` hands out: whitelisted
  bound methods of Python values (none of which gives access to an object's
  type, frame, globals or code) and the ``_gradcli_public`` attributes of
  gradcli objects, whose return values are again gradcli objects or plain
  values (the engine's half of the contract);
* :class:`UserFunction` objects (expose no attribute at all) and the results
  of calling any of the above.

No path yields a module, a frame, a code object, a type's ``__dict__`` or a
function's ``__globals__``: every attribute read goes through ``get_attr``,
``_``-prefixed attribute/keyword names are refused statically (and ``**kwargs``
keys at run time for non-user callees), names starting with ``__`` are refused
statically, and names resolve only in the file's own scopes, the globals dict
and the builtins table -- never in Python's ``builtins`` module.  Generator
objects (from generator expressions) and types reached through ``torch.Tensor``
are opaque.  Subscripts, operators, iteration, truth tests, ``str``/``repr``/
``format`` call dunder methods of values the user already holds, which is
exactly Python semantics on those objects.  ``str.format`` is the language's own
(:mod:`.formatting`: fields name arguments only, never their attributes or items),
``format_map`` is not exposed, and ``%`` on strings checks its widths first.  Resource exhaustion is bounded by :class:`gradcli.lang.limits.Budget`
(steps, time, call depth, output) and size checks on the Python operations
that can grow without a loop (``*``, ``**``, ``<<``, ``+`` on sequences,
``list(range(n))``, unpacking a range, format widths; :mod:`.operators`),
where building a container also costs steps in proportion to its size, so the
memory a program can fill is bounded by the step budget too; the live memory
itself is bounded by ``--max-memory`` (checked with the clock, before big
tensor allocations, and by ``RLIMIT_DATA``: :mod:`gradcli.lang.run`).  The
escape suite (``tests/lang/test_sandbox.py``) and the fuzzing of
``tests/fuzz/`` (docs/FUZZING.md) test this argument; SECURITY.md states the
threat model it serves.

Related modules: :mod:`.functions` (user functions, argument binding),
:mod:`.operators` (size-guarded operators), :mod:`.position` (the current
position), :mod:`.scope` (static scopes and frame slots), :mod:`.access` (the
attribute gate), :mod:`.errmap` (exception -> error kind, positions).
"""

from __future__ import annotations

import ast
import importlib
import sys
from typing import Any, Callable, Optional

from ..errors import GradcliError, error_class
from . import errmap, exceptions
from .access import (del_attr, get_attr, is_gradcli_object, set_attr, set_field_formatter, set_key_wrappers,
                     set_size_checker)
from .functions import UNBOUND, Code, UserFunction
from .limits import Budget, Limits
from .operators import COMPARE, UNARY, Operators
from .position import Position, position
from .safe_builtins import OutputBuffer, make_builtins
from .scope import Scope, comprehension_locals, function_locals, param_names

__all__ = [
    "position",
    "Position",
    "UserFunction",
    "Interpreter",
    "BREAK",
    "CONTINUE",
]


Closure = Callable[[Any], Any]


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


BREAK = _Signal("BREAK")
CONTINUE = _Signal("CONTINUE")


_MISS = object()


def _err(kind: str, message: str) -> GradcliError:
    return error_class(kind)(message)


# ---------------------------------------------------------------------------------------------
# the runtime of one run
# ---------------------------------------------------------------------------------------------
class _Runtime:
    """Everything closures of one run share."""

    def __init__(self, interp: "Interpreter") -> None:
        self.budget = interp.budget
        self.tick = interp.budget.tick
        self.max_depth = interp.limits.max_call_depth
        self.handling: list = []  # the errors whose except handlers are running, innermost last (bare raise)


class Interpreter:
    """Runs checked trees against one globals dict, under one budget.

    globals_: the module namespace (``torch``, ``F``, ``--set`` names ...); the
        file's top-level bindings are added to it in order.
    requires_grad / retain_grad: names that get ``NAME.requires_grad_()`` /
        ``NAME.retain_grad()`` after every assignment statement binding them.
    track: a type (the engine's Tensor): after every top-level assignment
        statement, the last name it binds to an instance of ``track`` and that
        value are kept in :attr:`tracked` (the default backward's target).
    function_base: the value ``torch.autograd.Function`` a class must derive from
        (None: not checked).
    """

    def __init__(
        self,
        globals_: dict,
        limits: Limits,
        *,
        requires_grad: tuple = (),
        retain_grad: tuple = (),
        track: Optional[type] = None,
        prelude: Optional[dict] = None,
        out: Optional[OutputBuffer] = None,
    ) -> None:
        self.globals = globals_
        self.limits = limits
        self.budget = Budget(limits)
        self.out = out if out is not None else OutputBuffer(self.budget)
        self.builtins, self.overrides = make_builtins(self.budget, self.out,
                                                      lambda: [self.prelude["torch"]] if "torch" in self.prelude else [])
        self.requires_grad = tuple(dict.fromkeys(requires_grad))
        self.retain_grad = tuple(dict.fromkeys(retain_grad))
        self.track = track
        self._tracked: list = [None]
        self.prelude = dict(prelude if prelude is not None else globals_)
        self.ops = Operators(limits, self.budget)
        self.rt = _Runtime(self)
        self._old_size_checker: Any = None
        self._math: Any = None

    def module_roots(self) -> dict:
        """Top-level modules an import can name -> a function giving the run's namespace for it."""
        return {"torch": lambda: self.prelude["torch"], "math": self.math_module}

    def math_module(self) -> Any:
        """The run's ``math`` namespace (lang/pymath.py), made at its first import."""
        if self._math is None:
            from .pymath import math_namespace

            self._math = math_namespace(self.budget, self.limits)
        return self._math

    @property
    def tracked(self) -> Optional[tuple[str, Any]]:
        """(name, tensor) last bound by a top-level assignment statement, or None."""
        return self._tracked[0]

    # -- entry points -----------------------------------------------------------------------
    def compile_module(self, tree: ast.Module) -> Callable[[], None]:
        """The module body as a closure ``run()``; raises GradcliError at the first error."""
        comp = Compiler(self, positions=True)
        body = comp.block(tree.body, Scope(None, [], is_module=True))

        def run() -> None:
            body(None)

        return run

    def compile_expression(self, tree: ast.Expression, positions: bool = False) -> Callable[[], Any]:
        """An expression (``--set``/``--gradient``) evaluated in the module namespace."""
        comp = Compiler(self, positions=positions)
        e = comp.expr(tree.body, Scope(None, [], is_module=True))

        def evaluate() -> Any:
            return e(None)

        return evaluate

    def __enter__(self) -> "Interpreter":
        self._old_size_checker = set_size_checker(self.budget.check_size)
        self._old_key_wrappers = set_key_wrappers(self.overrides)
        self._old_formatter = set_field_formatter(self.ops.fmt)
        return self

    def __exit__(self, *exc: Any) -> None:
        set_size_checker(self._old_size_checker)
        set_key_wrappers(self._old_key_wrappers)
        set_field_formatter(self._old_formatter)


# ---------------------------------------------------------------------------------------------
# the compiler
# ---------------------------------------------------------------------------------------------
class Compiler:
    """Turns statements/expressions into closures (see the module docstring)."""

    def __init__(self, interp: Interpreter, positions: bool = True) -> None:
        self.interp = interp
        self.positions = positions
        self.stmt_line: Optional[int] = None
        self.multiline = False
        self.tracked_inline = False
        # super(): the class statement (a token) of the method being compiled, for its direct body only
        self.method_ctx: Optional[object] = None
        self.next_method_ctx: Optional[object] = None
        self._in_display = False  # compiling the inside of a display (its cost is charged by the outermost)

    # -- helpers ---------------------------------------------------------------------------
    def pos(self, node: ast.AST) -> tuple[Optional[int], Optional[int]]:
        if not self.positions:
            return None, None
        return getattr(node, "lineno", None), getattr(node, "col_offset", None)

    def other_line(self, node: ast.AST) -> bool:
        """Must this operation record its own position (it is part of a multi-line statement)?

        In a statement spanning several lines, CPython reports the line of the
        running operation, so every call/attribute read there stores its own
        position; single-line statements only store the statement's.
        """
        return self.positions and self.multiline

    def unsupported(self, node: ast.AST, what: str) -> GradcliError:
        line, col = self.pos(node)
        return error_class("unsupported")(f"unsupported construct: {what}", line=line, col=col)

    # -- blocks ----------------------------------------------------------------------------
    def block(self, stmts: list, scope: Scope) -> Closure:
        closures = []
        for s in stmts:
            c = self.stmt(s, scope)
            if c is not None:
                closures.extend(c if isinstance(c, list) else [c])
        n = len(closures)
        if n == 0:
            return lambda fr: None
        if n == 1:
            return closures[0]
        if n == 2:
            a, b = closures

            def block2(fr):
                r = a(fr)
                if r is not None:
                    return r
                return b(fr)

            return block2
        if n == 3:
            a, b, c3 = closures

            def block3(fr):
                r = a(fr)
                if r is not None:
                    return r
                r = b(fr)
                if r is not None:
                    return r
                return c3(fr)

            return block3
        items = tuple(closures)

        def blockn(fr):
            for s in items:
                r = s(fr)
                if r is not None:
                    return r
            return None

        return blockn

    # -- statements ------------------------------------------------------------------------
    def stmt(self, node: ast.stmt, scope: Scope):
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, type(node).__name__)
        saved = self.stmt_line, self.multiline
        self.stmt_line = getattr(node, "lineno", None) if self.positions else None
        self.multiline = _header_end(node) != self.stmt_line
        self.tracked_inline = False
        try:
            core = method(node, scope)
        finally:
            self.stmt_line, self.multiline = saved
        if core is None:
            return None
        post = self.after_assignment(node, scope)
        if not post:
            return core
        posts = tuple(post)

        def with_post(fr):
            r = core(fr)
            for p in posts:
                p(fr)
            return r

        return with_post

    def after_assignment(self, node: ast.stmt, scope: Scope) -> list:
        """--requires-grad / --retain-grad calls and default-backward tracking after an assignment."""
        if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return []
        if isinstance(node, ast.AnnAssign) and node.value is None:
            return []
        names: list[str] = []
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            _collect_names(t, names)
        if not names:
            return []
        post = []
        interp = self.interp
        for method, wanted in (("requires_grad_", interp.requires_grad), ("retain_grad", interp.retain_grad)):
            for n in names:
                if n in wanted:
                    call = ast.Expr(
                        value=ast.Call(
                            func=ast.Attribute(value=ast.Name(id=n, ctx=ast.Load()), attr=method, ctx=ast.Load()),
                            args=[],
                            keywords=[],
                        )
                    )
                    for sub in ast.walk(call):
                        ast.copy_location(sub, node)
                    post.append(self.stmt(call, scope))
        if scope.is_module and interp.track is not None and not self.tracked_inline:
            T = interp.track
            cell = interp._tracked
            G = interp.globals
            tnames = tuple(names)

            def track(fr):
                for n in tnames:
                    v = G.get(n)
                    if isinstance(v, T):
                        cell[0] = (n, v)

            post.append(track)
        return post

    def s_Pass(self, node, scope):
        return None

    def s_Expr(self, node, scope):
        value = self.expr(node.value, scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None

        def expr_stmt(fr):
            P.loc = loc
            value(fr)

        return expr_stmt

    def s_Assign(self, node, scope):
        value = self.expr(node.value, scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            where = scope.resolve(name)
            if where[0] == "global":
                G = self.interp.globals
                T = self.interp.track
                if T is not None:
                    self.tracked_inline = True
                    cell = self.interp._tracked

                    def assign_global_tracked(fr):
                        P.loc = loc
                        v = G[name] = value(fr)
                        if isinstance(v, T):
                            cell[0] = (name, v)

                    return assign_global_tracked

                def assign_global(fr):
                    P.loc = loc
                    G[name] = value(fr)

                return assign_global
            idx = where[1]

            def assign_local(fr):
                P.loc = loc
                fr[idx] = value(fr)

            return assign_local
        stores = [self.store(t, scope) for t in node.targets]
        if len(stores) == 1:
            store = stores[0]

            def assign1(fr):
                P.loc = loc
                v = value(fr)
                try:
                    store(fr, v)
                except Exception as e:
                    raise fix(e, line, col)

            return assign1
        stores_t = tuple(stores)

        def assign_n(fr):
            P.loc = loc
            v = value(fr)
            try:
                for st in stores_t:
                    st(fr, v)
            except Exception as e:
                raise fix(e, line, col)

        return assign_n

    def s_AnnAssign(self, node, scope):
        ann = self.expr(node.annotation, scope) if scope.is_module and node.simple else None
        if node.value is None:
            if ann is None:
                return None
            return lambda fr: (ann(fr), None)[1]
        value = self.expr(node.value, scope)
        store = self.store(node.target, scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix

        def ann_assign(fr):
            P.loc = loc
            v = value(fr)
            if ann is not None:
                ann(fr)
            try:
                store(fr, v)
            except Exception as e:
                raise fix(e, line, col)

        return ann_assign

    def s_AugAssign(self, node, scope):
        iop = self.interp.ops.inplace[type(node.op)]
        value = self.expr(node.value, scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        target = node.target
        if isinstance(target, ast.Name):
            load = self.load_name(target.id, scope, target)
            store = self.store(target, scope)

            def aug_name(fr):
                P.loc = loc
                cur = load(fr)
                rhs = value(fr)
                try:
                    res = iop(cur, rhs)
                except Exception as e:
                    raise fix(e, line, col)
                store(fr, res)

            return aug_name
        if isinstance(target, ast.Subscript):
            obj_e = self.expr(target.value, scope)
            idx_e = self.expr(target.slice, scope)

            def aug_item(fr):
                P.loc = loc
                obj = obj_e(fr)
                idx = idx_e(fr)
                try:
                    cur = obj[idx]
                    rhs = value(fr)
                    res = iop(cur, rhs)
                    obj[idx] = res
                except Exception as e:
                    raise fix(e, line, col)

            return aug_item
        if isinstance(target, ast.Attribute):
            obj_e = self.expr(target.value, scope)
            attr = target.attr

            def aug_attr(fr):
                P.loc = loc
                obj = obj_e(fr)
                try:
                    cur = get_attr(obj, attr)
                    rhs = value(fr)
                    res = iop(cur, rhs)
                    set_attr(obj, attr, res)
                except Exception as e:
                    raise fix(e, line, col)

            return aug_attr
        raise self.unsupported(node, "augmented assignment target")

    def s_Return(self, node, scope):
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        if node.value is None:
            def return_none(fr):
                P.loc = loc
                return (None,)

            return return_none
        value = self.expr(node.value, scope)

        def return_value(fr):
            P.loc = loc
            return (value(fr),)

        return return_value

    def s_Break(self, node, scope):
        return lambda fr: BREAK

    def s_Continue(self, node, scope):
        return lambda fr: CONTINUE

    def s_If(self, node, scope):
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        if orelse is None:
            def if_(fr):
                P.loc = loc
                try:
                    c = True if test(fr) else False
                except Exception as e:
                    raise fix(e, line, col)
                if c:
                    return body(fr)
                return None

            return if_

        def if_else(fr):
            P.loc = loc
            try:
                c = True if test(fr) else False
            except Exception as e:
                raise fix(e, line, col)
            if c:
                return body(fr)
            return orelse(fr)

        return if_else

    def s_While(self, node, scope):
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        tick = self.interp.budget.tick
        refill = self.interp.budget.refill

        def while_(fr):
            P.loc = loc
            try:
                while test(fr):
                    tick[0] -= 1
                    if tick[0] <= 0:
                        refill()
                    r = body(fr)
                    P.loc = loc
                    if r is not None:
                        if r is BREAK:
                            return None
                        if r is CONTINUE:
                            continue
                        return r
            except Exception as e:
                raise fix(e, line, col)
            if orelse is not None:
                return orelse(fr)
            return None

        return while_

    def s_For(self, node, scope):
        iterable = self.expr(node.iter, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        tick = self.interp.budget.tick
        refill = self.interp.budget.refill
        target = node.target
        if isinstance(target, ast.Name) and scope.resolve(target.id)[0] == "global":
            G = self.interp.globals
            name = target.id

            def for_global(fr):
                P.loc = loc
                it = iterable(fr)
                try:
                    for v in it:
                        tick[0] -= 1
                        if tick[0] <= 0:
                            refill()
                        G[name] = v
                        r = body(fr)
                        P.loc = loc  # the next item is fetched at the for line (a DataLoader's batch, its warnings)
                        if r is not None:
                            if r is BREAK:
                                return None
                            if r is CONTINUE:
                                continue
                            return r
                except Exception as e:
                    raise fix(e, line, col)
                if orelse is not None:
                    return orelse(fr)
                return None

            return for_global
        if isinstance(target, ast.Name):
            idx = scope.resolve(target.id)[1]

            def for_local(fr):
                P.loc = loc
                it = iterable(fr)
                try:
                    for v in it:
                        tick[0] -= 1
                        if tick[0] <= 0:
                            refill()
                        fr[idx] = v
                        r = body(fr)
                        P.loc = loc  # the next item is fetched at the for line (a DataLoader's batch, its warnings)
                        if r is not None:
                            if r is BREAK:
                                return None
                            if r is CONTINUE:
                                continue
                            return r
                except Exception as e:
                    raise fix(e, line, col)
                if orelse is not None:
                    return orelse(fr)
                return None

            return for_local
        store = self.store(target, scope)

        def for_any(fr):
            P.loc = loc
            it = iterable(fr)
            try:
                for v in it:
                    tick[0] -= 1
                    if tick[0] <= 0:
                        refill()
                    store(fr, v)
                    r = body(fr)
                    P.loc = loc  # the next item is fetched at the for line (a DataLoader's batch, its warnings)
                    if r is not None:
                        if r is BREAK:
                            return None
                        if r is CONTINUE:
                            continue
                        return r
            except Exception as e:
                raise fix(e, line, col)
            if orelse is not None:
                return orelse(fr)
            return None

        return for_any

    def s_Assert(self, node, scope):
        test = self.expr(node.test, scope)
        msg = self.expr(node.msg, scope) if node.msg is not None else None
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        try:
            text = ast.unparse(node.test)
        except Exception:  # pragma: no cover - unparse handles every allowed node
            text = "condition"
        check_text = self.interp.budget.check_text

        def assert_(fr):
            P.loc = loc
            try:
                ok = True if test(fr) else False
            except Exception as e:
                raise fix(e, line, col)
            if ok:
                return None
            if msg is not None:
                m = msg(fr)
                try:
                    check_text(m)  # the message's text bounded before str() builds it (a shared list: minutes)
                    message = str(m)
                except Exception as e:
                    raise fix(e, line, col)
            else:
                message = f"assertion failed: {text}"
            err = error_class("assertion")(message, "", line=line, col=col,
                                           torch_message=message if msg is not None else "")
            err.torch_args = (m,) if msg is not None else ()  # what a handler's e.args holds
            if line is not None:
                err.frames.append((line, col))
            raise err

        return assert_

    def s_With(self, node, scope):
        items = [
            (self.expr(it.context_expr, scope), self.store(it.optional_vars, scope) if it.optional_vars else None)
            for it in node.items
        ]
        body = self.block(node.body, scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix

        def make(i: int) -> Closure:
            ctx_e, store = items[i]
            inner = body if i == len(items) - 1 else make(i + 1)

            def with_(fr):
                P.loc = loc
                mgr = ctx_e(fr)
                try:
                    if not is_gradcli_object(mgr) or not hasattr(type(mgr), "__enter__") or not hasattr(
                        type(mgr), "__exit__"
                    ):
                        raise TypeError(
                            f"'{type(mgr).__name__}' object does not support the context manager protocol"
                        )
                    exit_ = type(mgr).__exit__
                    val = type(mgr).__enter__(mgr)
                except Exception as e:
                    raise fix(e, line, col)
                try:
                    if store is not None:
                        store(fr, val)
                    r = inner(fr)
                except BaseException as e:
                    try:
                        suppress = exit_(mgr, type(e), e, e.__traceback__)
                    except Exception as e2:
                        raise fix(e2, line, col)
                    if not suppress:
                        raise fix(e, line, col) if isinstance(e, Exception) else e
                    return None
                try:
                    exit_(mgr, None, None, None)
                except Exception as e:
                    raise fix(e, line, col)
                return r

            return with_

        return make(0)

    def s_Try(self, node, scope):
        return exceptions.compile_try(self, node, scope)

    def s_Raise(self, node, scope):
        return exceptions.compile_raise(self, node, scope)

    def s_Import(self, node, scope):
        """``import a.b.c [as x]``: resolved now (lang/imports.py), bound when the statement runs."""
        from .imports import ImportRefused, refusal, resolve_module

        line, col = self.pos(node)
        roots = self.interp.module_roots()
        bindings = []
        for a in node.names:
            try:
                value = resolve_module(a.name, roots)
                if a.asname is None:
                    name, value = a.name.split(".")[0], resolve_module(a.name.split(".")[0], roots)
                else:
                    name = a.asname
            except ImportRefused as e:
                raise refusal(e, line, col) from None
            bindings.append((name, value))
        return self._bind_imports(node, scope, bindings)

    def s_ImportFrom(self, node, scope):
        """``from a.b import c [as d], ...``: resolved now, bound when the statement runs."""
        from .imports import ImportRefused, refusal, resolve_member, resolve_module

        line, col = self.pos(node)
        module_path = node.module or ""
        try:
            module = resolve_module(module_path, self.interp.module_roots())
            bindings = [(a.asname or a.name, resolve_member(module, module_path, a.name)) for a in node.names]
        except ImportRefused as e:
            raise refusal(e, line, col) from None
        return self._bind_imports(node, scope, bindings)

    def _bind_imports(self, node, scope, bindings):
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        stores = tuple((self.store(ast.Name(id=name, ctx=ast.Store()), scope), value) for name, value in bindings)

        def import_(fr):
            P.loc = loc
            for store, value in stores:
                store(fr, value)

        return import_

    def s_FunctionDef(self, node, scope):
        make = self.function(node, scope)
        store = self.store(ast.Name(id=node.name, ctx=ast.Store()), scope)
        decos = [(self.expr(d, scope), self.pos(d)) for d in node.decorator_list]
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        add_frame = errmap.add_frame

        def def_(fr):
            P.loc = loc
            try:
                dvals = [(d(fr), where) for d, where in decos]
                f = make(fr)
            except Exception as e:
                raise fix(e, line, col)
            for d, (dline, dcol) in reversed(dvals):
                try:
                    if type(d) is not UserFunction and not is_gradcli_object(d):
                        raise _err(
                            "unsupported", "a decorator must be a torch object (e.g. torch.no_grad()) or a function "
                            "defined in the file"
                        )
                    f = d(f)
                except Exception as e:
                    err = fix(e, dline, dcol)
                    add_frame(err, dline, dcol)
                    raise err
            store(fr, f)

        return def_

    def s_ClassDef(self, node, scope):
        from .validate import _is_function_class

        if _is_function_class(node):
            return self._function_class(node, scope)
        return self._user_class(node, scope)

    def _user_class(self, node, scope):
        """A class of the file (SPEC §2b; lang/classes.py): methods, class attributes, one base or none."""
        from . import classes

        base = node.bases[0] if node.bases else None
        if isinstance(base, ast.Name) and base.id == "object" and scope.resolve("object")[0] == "global" \
                and "object" not in self.interp.globals:
            base = None
        base_e = self.expr(base, scope) if base is not None else None
        token = object()  # identifies this class statement: super() finds its class in the MRO by it
        methods = []
        attrs = []
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):
                kind = "method"
                decos = []
                for d in stmt.decorator_list:
                    if isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod", "property"):
                        kind = {"staticmethod": "static", "classmethod": "class", "property": "property"}[d.id]
                    else:
                        decos.append((self.expr(d, scope), self.pos(d)))
                if decos and kind == "method":
                    kind = "value"
                self.next_method_ctx = token
                methods.append((stmt.name, self.function(stmt, scope), tuple(decos), kind))
                self.next_method_ctx = None
            elif isinstance(stmt, ast.Assign):
                attrs.append(([t.id for t in stmt.targets], self.expr(stmt.value, scope)))
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                attrs.append(([stmt.target.id], self.expr(stmt.value, scope)))
        store = self.store(ast.Name(id=node.name, ctx=ast.Store()), scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        add_frame = errmap.add_frame
        prelude = self.interp.prelude
        cname = node.name

        def user_class(fr):
            P.loc = loc
            try:
                base_v = base_e(fr) if base_e is not None else None
                values: dict = {}
                for names, e in attrs:
                    v = e(fr)
                    for n in names:
                        values[n] = v
            except Exception as e:
                raise fix(e, line, col)
            made = []
            for name, mk, decos, kind in methods:
                try:
                    dvals = [(d(fr), where) for d, where in decos]
                    f = mk(fr)
                except Exception as e:
                    raise fix(e, line, col)
                for d, (dline, dcol) in reversed(dvals):
                    try:
                        if type(d) is not UserFunction and not is_gradcli_object(d):
                            raise _err("unsupported", "a decorator must be a torch object (e.g. torch.no_grad()) or "
                                       "a function defined in the file")
                        f = d(f)
                    except Exception as e:
                        err = fix(e, dline, dcol)
                        add_frame(err, dline, dcol)
                        raise err
                made.append((name, f, kind))
            try:
                function_base = _torch_function_base(prelude)
                if function_base is not None and isinstance(base_v, type) and issubclass(base_v, function_base):
                    make_class = _function_class_factory()
                    cls = make_class(cname, {n: f for n, f, _ in made})
                else:
                    cls = classes.make_user_class(cname, base_v, made, values, token)
            except Exception as e:
                raise fix(e, line, col)
            store(fr, cls)

        return user_class

    def _function_class(self, node, scope):
        base_e = self.expr(node.bases[0], scope)
        methods = []
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):
                # @staticmethod is what make_function_class does to every method; any other decorator
                # (@once_differentiable, a function of the file) is applied to the function, bottom-up
                decos = [(self.expr(d, scope), self.pos(d)) for d in stmt.decorator_list
                         if not (isinstance(d, ast.Name) and d.id == "staticmethod")]
                methods.append((stmt.name, self.function(stmt, scope), tuple(decos)))
        add_frame = errmap.add_frame
        store = self.store(ast.Name(id=node.name, ctx=ast.Store()), scope)
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None
        fix = errmap.fix
        prelude = self.interp.prelude
        cname = node.name

        def class_(fr):
            P.loc = loc
            try:
                base = base_e(fr)
                make_class = _function_class_factory()
                if make_class is None:
                    raise _err("unsupported", "custom autograd.Function arrives later")
                expected = None
                try:
                    expected = get_attr(get_attr(prelude["torch"], "autograd"), "Function")
                except Exception:
                    expected = None
                if expected is not None and base is not expected:
                    raise _err("unsupported", "unsupported class: only subclasses of torch.autograd.Function")
            except Exception as e:
                raise fix(e, line, col)
            made = {}
            for name, mk, decos in methods:
                try:
                    dvals = [(d(fr), where) for d, where in decos]
                    f = mk(fr)
                except Exception as e:
                    raise fix(e, line, col)
                for d, (dline, dcol) in reversed(dvals):
                    try:
                        if type(d) is not UserFunction and not is_gradcli_object(d):
                            raise _err(
                                "unsupported", "a decorator must be a torch object (e.g. "
                                "torch.autograd.function.once_differentiable) or a function defined in the file"
                            )
                        f = d(f)
                    except Exception as e:
                        err = fix(e, dline, dcol)
                        add_frame(err, dline, dcol)
                        raise err
                made[name] = f
            try:
                cls = make_class(cname, made)
            except Exception as e:
                raise fix(e, line, col)
            store(fr, cls)

        return class_

    def _zero_arg_super(self, node, scope):
        """``super()`` in a method body: the class of this class statement in ``type(self)``'s MRO, and the
        method's first argument (Python's ``__class__`` cell and first local)."""
        from .classes import zero_arg_super

        token, has_first = self.method_ctx
        line, col = self.pos(node)
        fix = errmap.fix

        def super_(fr):
            try:
                if not has_first or fr[1] is UNBOUND:
                    raise _err("runtime", "super(): no arguments")
                return zero_arg_super(token, fr[1])
            except Exception as e:
                raise fix(e, line, col)

        return super_

    def s_Delete(self, node, scope):
        """``del x``, ``del x[i]``, ``del obj.attr`` (SPEC §2b), targets left to right."""
        dels = [self.delete(t, scope) for t in node.targets]
        line, col = self.pos(node)
        P = position
        loc = (line, col) if line is not None else None

        def delete_(fr):
            P.loc = loc
            for d in dels:
                d(fr)

        return delete_

    def delete(self, target, scope):
        line, col = self.pos(target)
        fix = errmap.fix
        if isinstance(target, (ast.Tuple, ast.List)):
            parts = [self.delete(e, scope) for e in target.elts]

            def del_all(fr):
                for d in parts:
                    d(fr)

            return del_all
        if isinstance(target, ast.Name):
            name = target.id
            where = scope.resolve(name)
            if where[0] == "global":
                G = self.interp.globals

                def del_global(fr):
                    if name not in G:
                        raise fix(_err("name", f"name '{name}' is not defined"), line, col)
                    del G[name]

                return del_global
            if where[0] == "local":
                idx = where[1]

                def del_local(fr):
                    if fr[idx] is UNBOUND:
                        raise fix(_err("name", f"cannot access local variable '{name}' where it is not "
                                       "associated with a value"), line, col)
                    fr[idx] = UNBOUND

                return del_local
            raise self.unsupported(target, "del of a variable of an enclosing function")
        if isinstance(target, ast.Subscript):
            obj_e = self.expr(target.value, scope)
            idx_e = self.expr(target.slice, scope)

            def del_item(fr):
                obj = obj_e(fr)
                idx = idx_e(fr)
                try:
                    del obj[idx]
                except Exception as e:
                    raise fix(e, line, col)

            return del_item
        if isinstance(target, ast.Attribute):
            obj_e = self.expr(target.value, scope)
            attr = target.attr

            def del_attr_(fr):
                obj = obj_e(fr)
                try:
                    del_attr(obj, attr)
                except Exception as e:
                    raise fix(e, line, col)

            return del_attr_
        raise self.unsupported(target, f"del of {type(target).__name__}")

    # -- functions -------------------------------------------------------------------------
    def function(self, node, scope: Scope) -> Callable[[Any], UserFunction]:
        """Compile a def/lambda; returns ``make(fr)`` that builds the function object at run time."""
        is_lambda = isinstance(node, ast.Lambda)
        fscope = Scope(scope, function_locals(node), name=getattr(node, "name", "<lambda>"))
        args = node.args
        code = Code()
        code.name = "<lambda>" if is_lambda else node.name
        code.rt = self.interp.rt
        code.is_lambda = is_lambda
        code.size = fscope.size
        pos = args.posonlyargs + args.args
        code.npos = len(pos)
        code.posnames = [a.arg for a in pos]
        code.posonly = frozenset(a.arg for a in args.posonlyargs)
        names = param_names(args)
        code.vararg = fscope.slots[args.vararg.arg] if args.vararg else None
        code.kwarg = fscope.slots[args.kwarg.arg] if args.kwarg else None
        code.varname = args.vararg.arg if args.vararg else None
        code.kwname = args.kwarg.arg if args.kwarg else None
        code.kwonly = {a.arg: fscope.slots[a.arg] for a in args.kwonlyargs}
        code.kwindex = {a.arg: fscope.slots[a.arg] for a in args.args}
        code.kwindex.update(code.kwonly)
        code.simple = code.vararg is None and code.kwarg is None and not code.kwonly
        code.pad = (UNBOUND,) * (fscope.size - 1 - code.npos)
        code.line, code.col = self.pos(node)
        assert len(names) <= fscope.size
        saved = self.stmt_line
        token, self.next_method_ctx = self.next_method_ctx, None
        saved_ctx, self.method_ctx = self.method_ctx, (token, bool(pos)) if token is not None else None
        try:
            if is_lambda:
                inner = self.expr(node.body, fscope)
                bline, bcol = self.pos(node.body)
                if bline is None:
                    code.body = inner
                else:
                    P = position
                    bloc = (bline, bcol)

                    def lambda_body(fr):
                        P.loc = bloc  # a warning inside the lambda is at its line (the innermost frame), as in Python
                        return inner(fr)

                    code.body = lambda_body
            else:
                code.body = self.block(node.body, fscope)
        finally:
            self.method_ctx = saved_ctx
        self.stmt_line = saved
        defaults = [self.expr(d, scope) for d in args.defaults]
        kwdefaults = [(a.arg, self.expr(d, scope)) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        annotations = []
        if not is_lambda:
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None and a.annotation is not None:
                    annotations.append(self.expr(a.annotation, scope))
            if node.returns is not None:
                annotations.append(self.expr(node.returns, scope))
        if not defaults and not kwdefaults and not annotations:
            empty: dict = {}

            def make_plain(fr):
                return UserFunction(code, fr, (), empty)

            return make_plain

        def make(fr):
            d = tuple(e(fr) for e in defaults)
            kd = {k: e(fr) for k, e in kwdefaults}
            for a in annotations:
                a(fr)
            return UserFunction(code, fr, d, kd)

        return make

    # -- assignment targets ----------------------------------------------------------------
    def store(self, target: ast.AST, scope: Scope) -> Callable[[Any, Any], None]:
        if isinstance(target, ast.Name):
            where = scope.resolve(target.id)
            name = target.id
            if where[0] == "global":
                G = self.interp.globals

                def store_global(fr, v):
                    G[name] = v

                return store_global
            if where[0] == "local":
                idx = where[1]

                def store_local(fr, v):
                    fr[idx] = v

                return store_local
            raise self.unsupported(target, "assignment to a variable of an enclosing function")
        if isinstance(target, (ast.Tuple, ast.List)):
            return self.store_unpack(target, scope)
        if isinstance(target, ast.Subscript):
            obj_e = self.expr(target.value, scope)
            idx_e = self.expr(target.slice, scope)
            line, col = self.pos(target)
            fix = errmap.fix

            def store_item(fr, v):
                obj = obj_e(fr)
                idx = idx_e(fr)
                try:
                    obj[idx] = v
                except Exception as e:
                    raise fix(e, line, col)

            return store_item
        if isinstance(target, ast.Attribute):
            obj_e = self.expr(target.value, scope)
            attr = target.attr
            line, col = self.pos(target)
            fix = errmap.fix

            def store_attr(fr, v):
                obj = obj_e(fr)
                try:
                    set_attr(obj, attr, v)
                except Exception as e:
                    raise fix(e, line, col)

            return store_attr
        raise self.unsupported(target, f"assignment to {type(target).__name__}")

    def store_unpack(self, target, scope):
        elts = target.elts
        star = next((i for i, e in enumerate(elts) if isinstance(e, ast.Starred)), None)
        stores = [self.store(e.value if isinstance(e, ast.Starred) else e, scope) for e in elts]
        n = len(elts)
        line, col = self.pos(target)
        fix = errmap.fix
        check_size = self.interp.budget.check_size
        budget = self.interp.budget

        if star is None:
            def unpack(fr, v):
                try:
                    tv = type(v)
                    if tv is tuple or tv is list:
                        items = v
                    else:
                        items = _take(v, n + 1)
                    if len(items) != n:
                        if len(items) < n:
                            raise ValueError(f"not enough values to unpack (expected {n}, got {len(items)})")
                        raise ValueError(f"too many values to unpack (expected {n})")
                except Exception as e:
                    raise fix(e, line, col)
                for st, x in zip(stores, items):
                    st(fr, x)

            return unpack
        before, after = star, n - star - 1

        def unpack_star(fr, v):
            try:
                if type(v) is range:
                    check_size(len(v), "list")
                    budget.charge(len(v))
                items = list(v)
                if len(items) < before + after:
                    raise ValueError(
                        f"not enough values to unpack (expected at least {before + after}, got {len(items)})"
                    )
            except Exception as e:
                raise fix(e, line, col)
            for i in range(before):
                stores[i](fr, items[i])
            stores[star](fr, items[before:len(items) - after])
            for j in range(after):
                stores[star + 1 + j](fr, items[len(items) - after + j])

        return unpack_star

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.expr, scope: Scope) -> Closure:
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, type(node).__name__)
        if type(node) in _DISPLAYS and not self._in_display:
            return self._charged_display(method, node, scope)
        if type(node) in _OWN_STEPS and self._in_display:  # its body runs once per step of its own
            self._in_display = False
            try:
                return method(node, scope)
            finally:
                self._in_display = True
        return method(node, scope)

    def _charged_display(self, method: Callable, node: ast.expr, scope: Scope) -> Closure:
        """An outermost list/tuple/dict/set display: building it costs one step per level of displays it
        nests beyond the first (issue 20: ``t = ((...(t,),...),)`` nesting 90 levels in one loop step made
        a tuple 18 million deep in 200,000 steps, and hashing it recursed in C past any stack).  So a
        value's container depth is at most the steps run, and the worker's C stack covers that many
        levels (run.worker_stack_bytes).  A flat display costs nothing extra."""
        self._in_display = True
        try:
            build = method(node, scope)
        finally:
            self._in_display = False
        extra = display_depth(node) - 1
        if extra <= 0:
            return build
        charge = self.interp.budget.charge

        def display(fr):
            charge(extra)
            return build(fr)

        return display

    def const_of(self, node: ast.AST) -> Any:
        """The value of a constant node (``-1`` included), or _MISS."""
        if isinstance(node, ast.Constant):
            return node.value
        if (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, (ast.USub, ast.UAdd))
            and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) in (int, float)
        ):
            v: Any = node.operand.value
            return -v if isinstance(node.op, ast.USub) else v
        return _MISS

    def e_Constant(self, node, scope):
        v = node.value
        return lambda fr: v

    def load_name(self, name: str, scope: Scope, node: ast.AST) -> Closure:
        where = scope.resolve(name)
        line, col = self.pos(node)
        fix = errmap.fix
        if where[0] == "global":
            G = self.interp.globals
            B = self.interp.builtins
            if name in B:
                G_get = G.get
                B_get = B.get
                miss = _MISS

                def load_builtin(fr):
                    v = G_get(name, miss)
                    if v is miss:
                        v = B_get(name, miss)
                        if v is miss:
                            raise fix(_err("name", f"name '{name}' is not defined"), line, col)
                    return v

                return load_builtin

            def load_global(fr):
                try:
                    return G[name]
                except KeyError:
                    pass
                raise fix(_err("name", f"name '{name}' is not defined"), line, col)

            return load_global
        if where[0] == "local":
            idx = where[1]

            def load_local(fr):
                v = fr[idx]
                if v is UNBOUND:
                    raise fix(
                        _err("name", f"cannot access local variable '{name}' where it is not associated with a value"),
                        line,
                        col,
                    )
                return v

            return load_local
        depth, idx = where[1], where[2]

        def unbound_free():
            return fix(
                _err(
                    "name",
                    f"cannot access free variable '{name}' where it is not associated with a value in enclosing scope",
                ),
                line,
                col,
            )

        if depth == 1:
            def load_outer1(fr):
                v = fr[0][idx]
                if v is UNBOUND:
                    raise unbound_free()
                return v

            return load_outer1

        def load_outer(fr):
            f = fr
            for _ in range(depth):
                f = f[0]
            v = f[idx]
            if v is UNBOUND:
                raise unbound_free()
            return v

        return load_outer

    def e_Name(self, node, scope):
        return self.load_name(node.id, scope, node)

    def e_Attribute(self, node, scope):
        obj_e = self.expr(node.value, scope)
        attr = node.attr
        line, col = self.pos(node)
        fix = errmap.fix
        if self.other_line(node):
            P = position
            loc = (line, col)

            def attribute_ml(fr):
                obj = obj_e(fr)
                P.loc = loc
                try:
                    return get_attr(obj, attr)
                except Exception as e:
                    raise fix(e, line, col)

            return attribute_ml

        def attribute(fr):
            obj = obj_e(fr)
            try:
                return get_attr(obj, attr)
            except Exception as e:
                raise fix(e, line, col)

        return attribute

    def e_Subscript(self, node, scope):
        obj_e = self.expr(node.value, scope)
        idx_e = self.expr(node.slice, scope)
        line, col = self.pos(node)
        fix = errmap.fix
        c = self.const_of(node.slice)
        if c is not _MISS and type(c) is int:

            def subscript_const(fr):
                obj = obj_e(fr)
                try:
                    return obj[c]
                except Exception as e:
                    raise fix(e, line, col)

            return subscript_const

        def subscript(fr):
            obj = obj_e(fr)
            idx = idx_e(fr)
            try:
                return obj[idx]
            except Exception as e:
                raise fix(e, line, col)

        return subscript

    def e_Slice(self, node, scope):
        lo = self.expr(node.lower, scope) if node.lower is not None else None
        hi = self.expr(node.upper, scope) if node.upper is not None else None
        st = self.expr(node.step, scope) if node.step is not None else None

        def slice_(fr):
            return slice(
                lo(fr) if lo is not None else None,
                hi(fr) if hi is not None else None,
                st(fr) if st is not None else None,
            )

        return slice_

    def e_BinOp(self, node, scope):
        op_t = type(node.op)
        line, col = self.pos(node)
        fix = errmap.fix
        lc, rc = self.const_of(node.left), self.const_of(node.right)
        if (type(rc) is float or type(lc) is float) and op_t in self.interp.ops.plain:
            op = self.interp.ops.plain[op_t]
        else:
            op = self.interp.ops.binary[op_t]
        if rc is not _MISS:
            left = self.expr(node.left, scope)

            def binop_rconst(fr):
                a = left(fr)
                try:
                    return op(a, rc)
                except Exception as e:
                    raise fix(e, line, col)

            return binop_rconst
        right = self.expr(node.right, scope)
        if lc is not _MISS:

            def binop_lconst(fr):
                b = right(fr)
                try:
                    return op(lc, b)
                except Exception as e:
                    raise fix(e, line, col)

            return binop_lconst
        left = self.expr(node.left, scope)

        def binop(fr):
            a = left(fr)
            b = right(fr)
            try:
                return op(a, b)
            except Exception as e:
                raise fix(e, line, col)

        return binop

    def e_UnaryOp(self, node, scope):
        c = self.const_of(node)
        if c is not _MISS:
            return lambda fr: c
        operand = self.expr(node.operand, scope)
        line, col = self.pos(node)
        fix = errmap.fix
        if isinstance(node.op, ast.Not):
            def not_(fr):
                v = operand(fr)
                try:
                    return not v
                except Exception as e:
                    raise fix(e, line, col)

            return not_
        op = UNARY[type(node.op)]

        def unary(fr):
            v = operand(fr)
            try:
                return op(v)
            except Exception as e:
                raise fix(e, line, col)

        return unary

    def e_BoolOp(self, node, scope):
        values = [self.expr(v, scope) for v in node.values]
        line, col = self.pos(node)
        fix = errmap.fix
        first, rest = values[0], tuple(values[1:])
        if isinstance(node.op, ast.And):
            def and_(fr):
                v = first(fr)
                try:
                    for e in rest:
                        if not v:
                            return v
                        v = e(fr)
                except Exception as ex:
                    raise fix(ex, line, col)
                return v

            return and_

        def or_(fr):
            v = first(fr)
            try:
                for e in rest:
                    if v:
                        return v
                    v = e(fr)
            except Exception as ex:
                raise fix(ex, line, col)
            return v

        return or_

    def e_Compare(self, node, scope):
        line, col = self.pos(node)
        fix = errmap.fix
        contains = self.interp.ops.contains

        def op_for(o):
            t = type(o)
            if t is ast.In:
                return lambda a, b: contains(b, a)
            if t is ast.NotIn:
                return lambda a, b: not contains(b, a)
            return COMPARE[t]

        left = self.expr(node.left, scope)
        ops = [op_for(o) for o in node.ops]
        rights = [self.expr(c, scope) for c in node.comparators]
        if len(ops) == 1:
            op, right = ops[0], rights[0]
            rc = self.const_of(node.comparators[0])
            if rc is not _MISS:
                def compare_const(fr):
                    a = left(fr)
                    try:
                        return op(a, rc)
                    except Exception as e:
                        raise fix(e, line, col)

                return compare_const

            def compare(fr):
                a = left(fr)
                b = right(fr)
                try:
                    return op(a, b)
                except Exception as e:
                    raise fix(e, line, col)

            return compare
        pairs = tuple(zip(ops, rights))

        def compare_chain(fr):
            a = left(fr)
            try:
                r = True
                for op, right in pairs:
                    b = right(fr)
                    r = op(a, b)
                    if not r:
                        return r
                    a = b
                return r
            except Exception as e:
                raise fix(e, line, col)

        return compare_chain

    def e_IfExp(self, node, scope):
        test = self.expr(node.test, scope)
        body = self.expr(node.body, scope)
        orelse = self.expr(node.orelse, scope)
        line, col = self.pos(node)
        fix = errmap.fix

        def ifexp(fr):
            try:
                c = True if test(fr) else False
            except Exception as e:
                raise fix(e, line, col)
            return body(fr) if c else orelse(fr)

        return ifexp

    def _elements(self, elts: list, scope: Scope) -> Closure:
        """A closure building the list of a display's elements (``*x`` unpacked)."""
        unpack = self.interp.ops.unpack
        fix = errmap.fix
        if not any(isinstance(e, ast.Starred) for e in elts):
            es = [self.expr(e, scope) for e in elts]
            n = len(es)
            if n == 0:
                return lambda fr: []
            if n == 1:
                (a,) = es
                return lambda fr: [a(fr)]
            if n == 2:
                a, b = es
                return lambda fr: [a(fr), b(fr)]
            if n == 3:
                a, b, c = es
                return lambda fr: [a(fr), b(fr), c(fr)]
            es_t = tuple(es)
            return lambda fr: [e(fr) for e in es_t]
        parts = []
        for e in elts:
            if isinstance(e, ast.Starred):
                parts.append((True, self.expr(e.value, scope), self.pos(e)))
            else:
                parts.append((False, self.expr(e, scope), self.pos(e)))
        parts_t = tuple(parts)
        check_size = self.interp.budget.check_size

        def elements(fr):
            out: list = []
            for starred, e, (line, col) in parts_t:
                if starred:
                    v = e(fr)
                    try:
                        out.extend(unpack(v))
                        check_size(len(out), "sequence")
                    except Exception as ex:
                        raise fix(ex, line, col)
                else:
                    out.append(e(fr))
            return out

        return elements

    def e_List(self, node, scope):
        return self._elements(node.elts, scope)

    def e_Tuple(self, node, scope):
        elements = self._elements(node.elts, scope)
        return lambda fr: tuple(elements(fr))

    def e_Dict(self, node, scope):
        items = []
        for k, v in zip(node.keys, node.values):
            items.append((self.expr(k, scope) if k is not None else None, self.expr(v, scope), self.pos(v)))
        items_t = tuple(items)
        fix = errmap.fix
        line, col = self.pos(node)

        def dict_(fr):
            d: dict = {}
            try:
                for k, v, _ in items_t:
                    if k is None:
                        d.update(v(fr))
                    else:
                        key = k(fr)
                        d[key] = v(fr)
            except Exception as e:
                raise fix(e, line, col)
            return d

        return dict_

    def e_JoinedStr(self, node, scope):
        parts = [self.expr(v, scope) for v in node.values]
        parts_t = tuple(parts)
        return lambda fr: "".join([p(fr) for p in parts_t])

    def e_FormattedValue(self, node, scope):
        value = self.expr(node.value, scope)
        spec = self.expr(node.format_spec, scope) if node.format_spec is not None else None
        conv = node.conversion
        fmt = self.interp.ops.fmt
        check_text = self.interp.budget.check_text
        line, col = self.pos(node)
        fix = errmap.fix

        def formatted(fr):
            v = value(fr)
            s = spec(fr) if spec is not None else ""
            try:
                if conv != -1:
                    check_text(v)  # !s/!r/!a of a hugely shared nested list (Budget.check_text)
                if conv == 115:
                    v = str(v)
                elif conv == 114:
                    v = repr(v)
                elif conv == 97:
                    v = ascii(v)
                return fmt(v, s)
            except Exception as e:
                raise fix(e, line, col)

        return formatted

    def e_Lambda(self, node, scope):
        return self.function(node, scope)

    def e_Starred(self, node, scope):
        raise self.unsupported(node, "starred expression here")

    # -- comprehensions --------------------------------------------------------------------
    def _comprehension(self, node, scope, kind: str) -> Closure:
        saved_ctx, self.method_ctx = self.method_ctx, None  # a comprehension's frame is not the method's
        try:
            return self._comprehension_body(node, scope, kind)
        finally:
            self.method_ctx = saved_ctx

    def _comprehension_body(self, node, scope, kind: str) -> Closure:
        cscope = Scope(scope, comprehension_locals(node), name="<comprehension>")
        gens = []
        for i, g in enumerate(node.generators):
            it = self.expr(g.iter, scope if i == 0 else cscope)
            gens.append((it, self.store(g.target, cscope), tuple(self.expr(c, cscope) for c in g.ifs)))
        if kind == "dict":
            key_e = self.expr(node.key, cscope)
            val_e = self.expr(node.value, cscope)
            elt = None
        else:
            elt = self.expr(node.elt, cscope)
        pad = (UNBOUND,) * (cscope.size - 1)
        tick = self.interp.budget.tick
        refill = self.interp.budget.refill
        line, col = self.pos(node)
        fix = errmap.fix
        ngen = len(gens)

        def produce(nf, level, emit):
            it_e, store, ifs = gens[level]
            src = it_e(nf)
            for v in src:
                tick[0] -= 1
                if tick[0] <= 0:
                    refill()
                store(nf, v)
                ok = True
                for c in ifs:
                    if not c(nf):
                        ok = False
                        break
                if not ok:
                    continue
                if level + 1 == ngen:
                    emit(nf)
                else:
                    produce(nf, level + 1, emit)

        first_it = gens[0][0]

        if kind == "gen":
            def genexp(fr):
                try:
                    src = iter(first_it(fr))
                except Exception as e:
                    raise fix(e, line, col)
                nf = [fr, *pad]

                def gen():
                    # errors become GradcliErrors here: the consumer may be engine code (torch.cat(genexp)),
                    # where a raw Python exception would read as a bug of gradcli
                    it_e, store, ifs = gens[0]
                    try:
                        for v in src:
                            tick[0] -= 1
                            if tick[0] <= 0:
                                refill()
                            store(nf, v)
                            if ifs and not all(c(nf) for c in ifs):
                                continue
                            if ngen == 1:
                                yield elt(nf)
                            else:
                                acc: list = []
                                produce(nf, 1, lambda f: acc.append(elt(f)))
                                yield from acc
                    except Exception as e:
                        raise fix(e, line, col)

                return gen()

            return genexp

        def comp(fr):
            nf = [fr, *pad]
            try:
                src = first_it(fr)
                it_e, store, ifs = gens[0]
                out: Any = [] if kind == "list" else set() if kind == "set" else {}

                def emit(f):
                    if kind == "list":
                        out.append(elt(f))
                    elif kind == "set":
                        out.add(elt(f))
                    else:
                        out[key_e(f)] = val_e(f)
                for v in src:
                    tick[0] -= 1
                    if tick[0] <= 0:
                        refill()
                    store(nf, v)
                    ok = True
                    for c in ifs:
                        if not c(nf):
                            ok = False
                            break
                    if not ok:
                        continue
                    if ngen == 1:
                        emit(nf)
                    else:
                        produce(nf, 1, emit)
            except Exception as e:
                raise fix(e, line, col)
            return out

        return comp

    def e_ListComp(self, node, scope):
        return self._comprehension(node, scope, "list")

    def e_DictComp(self, node, scope):
        return self._comprehension(node, scope, "dict")

    def e_SetComp(self, node, scope):
        return self._comprehension(node, scope, "set")

    def e_Set(self, node, scope):
        elements = self._elements(node.elts, scope)
        line, col = self.pos(node)
        fix = errmap.fix

        def set_(fr):
            items = elements(fr)
            try:
                return set(items)
            except Exception as e:
                raise fix(e, line, col)

        return set_

    def e_GeneratorExp(self, node, scope):
        return self._comprehension(node, scope, "gen")

    # -- calls -----------------------------------------------------------------------------
    def e_Call(self, node, scope):
        if (self.method_ctx is not None and isinstance(node.func, ast.Name) and node.func.id == "super"
                and not node.args and not node.keywords and scope.resolve("super")[0] == "global"):
            return self._zero_arg_super(node, scope)
        line, col = self.pos(node)
        fix = errmap.fix
        fix_call = errmap.fix_call
        P = position
        ovr = self.interp.overrides
        UF = UserFunction
        multi_line = self.other_line(node)
        loc = (line, col) if line is not None else None
        simple_args = not any(isinstance(a, ast.Starred) for a in node.args) and not node.keywords
        method = isinstance(node.func, ast.Attribute)
        if method:
            obj_e = self.expr(node.func.value, scope)
            attr = node.func.attr
            attr_line, attr_col = self.pos(node.func)
        else:
            func_e = self.expr(node.func, scope)

        if simple_args and not multi_line:
            arg_es = [self.expr(a, scope) for a in node.args]
            n = len(arg_es)
            if method:
                if n == 0:
                    def mcall0(fr):
                        obj = obj_e(fr)
                        try:
                            f = get_attr(obj, attr)
                        except Exception as e:
                            raise fix(e, attr_line, attr_col)
                        try:
                            if f.__class__ is UF:
                                saved = P.loc
                                r = f._invoke((), None)
                                P.loc = saved
                                return r
                            return f()
                        except Exception as e:
                            raise fix_call(e, f, (), None, line, col)

                    return mcall0
                if n == 1:
                    (a0,) = arg_es

                    def mcall1(fr):
                        obj = obj_e(fr)
                        try:
                            f = get_attr(obj, attr)
                        except Exception as e:
                            raise fix(e, attr_line, attr_col)
                        x = a0(fr)
                        try:
                            if f.__class__ is UF:
                                saved = P.loc
                                r = f._invoke((x,), None)
                                P.loc = saved
                                return r
                            return f(x)
                        except Exception as e:
                            raise fix_call(e, f, (x,), None, line, col)

                    return mcall1
            else:
                if n == 1:
                    (a0,) = arg_es

                    def call1(fr):
                        f = func_e(fr)
                        x = a0(fr)
                        try:
                            if f.__class__ is UF:
                                saved = P.loc
                                r = f._invoke((x,), None)
                                P.loc = saved
                                return r
                            if f.__class__ is type:
                                f = ovr.get(f, f)
                            return f(x)
                        except Exception as e:
                            raise fix_call(e, f, (x,), None, line, col)

                    return call1
                if n == 2:
                    a0, a1 = arg_es

                    def call2(fr):
                        f = func_e(fr)
                        x = a0(fr)
                        y = a1(fr)
                        try:
                            if f.__class__ is UF:
                                saved = P.loc
                                r = f._invoke((x, y), None)
                                P.loc = saved
                                return r
                            if f.__class__ is type:
                                f = ovr.get(f, f)
                            return f(x, y)
                        except Exception as e:
                            raise fix_call(e, f, (x, y), None, line, col)

                    return call2

        # the general form: starred args, keywords, **kwargs, multi-line calls
        args_e = self._elements(node.args, scope)
        kws = []
        for k in node.keywords:
            kws.append((k.arg, self.expr(k.value, scope), self.pos(k.value)))
        kws_t = tuple(kws)

        def call(fr):
            if method:
                obj = obj_e(fr)
                try:
                    f = get_attr(obj, attr)
                except Exception as e:
                    raise fix(e, attr_line, attr_col)
            else:
                f = func_e(fr)
            args = args_e(fr)
            kwargs: Optional[dict] = None
            if kws_t:
                kwargs = {}
                for k, ke, (kl, kc) in kws_t:
                    v = ke(fr)
                    if k is not None:
                        if k in kwargs:
                            raise fix(TypeError(f"got multiple values for keyword argument '{k}'"), line, col)
                        kwargs[k] = v
                        continue
                    try:
                        if not isinstance(v, dict):
                            raise TypeError(f"argument after ** must be a mapping, not {type(v).__name__}")
                        for kk, vv in v.items():
                            if not isinstance(kk, str):
                                raise TypeError("keywords must be strings")
                            if kk in kwargs:
                                raise TypeError(f"got multiple values for keyword argument '{kk}'")
                            kwargs[kk] = vv
                    except Exception as ex:
                        raise fix(ex, kl, kc)
            if multi_line:
                P.loc = loc
            try:
                if f.__class__ is UF:
                    saved = P.loc
                    r = f._invoke(args, kwargs)
                    P.loc = saved
                    return r
                if kwargs:
                    for k in kwargs:
                        if k.startswith("_"):
                            raise _err("unsupported", f"unsupported keyword argument: {k}")
                if f.__class__ is type:
                    f = ovr.get(f, f)
                if kwargs:
                    return f(*args, **kwargs)
                return f(*args)
            except Exception as e:
                raise fix_call(e, f, args, kwargs, line, col)

        return call


def _torch_function_base(prelude: dict) -> Optional[type]:
    """``torch.autograd.Function`` of the run, when it can be read."""
    try:
        return get_attr(get_attr(prelude["torch"], "autograd"), "Function")
    except Exception:  # noqa: BLE001 - no engine Function: no Function classes
        return None


def _header_end(node: ast.stmt) -> Optional[int]:
    """Last line of a statement's own expressions (a compound statement's header, not its body)."""
    if isinstance(node, (ast.If, ast.While)):
        part: Any = node.test
    elif isinstance(node, ast.For):
        part = node.iter
    elif isinstance(node, ast.With):
        part = node.items[-1].context_expr if node.items else node
    elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Try)):
        return getattr(node, "lineno", None)  # decorators/defaults: positioned by the def line; try: its keyword
    else:
        part = node
    return getattr(part, "end_lineno", None)


def _function_class_factory() -> Optional[Callable[[str, dict], Any]]:
    """The engine's ``make_function_class(name, methods)``, or None when it has none (yet)."""
    try:
        mod = importlib.import_module("gradcli.autograd.function")
    except ImportError:
        return None
    return getattr(mod, "make_function_class", None)


_DISPLAYS = (ast.List, ast.Tuple, ast.Dict, ast.Set)
#: expressions whose bodies run per iteration or call (each a step): displays inside them are charged there
_OWN_STEPS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def display_depth(node: ast.AST) -> int:
    """The most list/tuple/dict/set displays nested along one path of ``node``'s tree (``((t,),)``: 2);
    the tree is at most ``--max-depth`` deep (validated before compiling)."""
    below = 0
    for child in ast.iter_child_nodes(node):
        if type(child) in _OWN_STEPS:
            continue
        d = display_depth(child)
        if d > below:
            below = d
    return below + (1 if type(node) in _DISPLAYS else 0)


def _take(iterable: Any, n: int) -> list:
    """At most ``n`` items of ``iterable`` (so unpacking a huge iterable stops early)."""
    out = []
    it = iter(iterable)
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def _collect_names(t: ast.AST, out: list) -> None:
    if isinstance(t, ast.Name):
        out.append(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _collect_names(e, out)
    elif isinstance(t, ast.Starred):
        _collect_names(t.value, out)


def required_recursion_limit(tree_depth: int, limits: Limits) -> int:
    """A Python recursion limit enough for closures nested ``tree_depth`` deep, ``max_call_depth`` times."""
    return min(200_000, 1000 + (limits.max_call_depth + 2) * (tree_depth + 12))


def set_recursion_limit(n: int) -> int:
    """Raise Python's recursion limit to at least ``n``; returns the old one."""
    old = sys.getrecursionlimit()
    if n > old:
        sys.setrecursionlimit(n)
    return old
