"""``gradcli modes FILE [--target NAME]``: the same file under each grad off-switch, side by side.

The file runs as written, then once per off-switch applied to the statement(s)
that assign the target at top level:

=========================== ============================================================
``no_grad``                 ``with torch.no_grad(): <stmt>``
``set_grad_enabled(False)`` ``with torch.set_grad_enabled(False): <stmt>``
``inference_mode``          ``with torch.inference_mode(): <stmt>``
``detach()``                ``<stmt>; NAME = NAME.detach()``
``requires_grad_(False)``   ``<stmt>; NAME.requires_grad_(False)``
``.data``                   ``<stmt>; NAME = NAME.data``
``model.eval()``            ``M.eval(); <stmt>`` for each nn.Module ``M`` the statement calls
                            (only when it calls one: eval() is not a grad switch, and the
                            table shows that the output keeps its grad_fn)
=========================== ============================================================

The rewrite is textual and keeps every line number (the ``with`` goes in front
of the statement on its own line, the detach after it), so errors and why-notes
point at the user's lines.  Each variant is an ordinary run (same options), and
:class:`ModesReport` lines up every tensor's flags and gradient, and the outcome,
per mode.  No rich here: :mod:`.render.modes` draws the table.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from typing import Any, Optional

from .problems import UsageProblem
from .srcinfo import SourceInfo, dotted

__all__ = ["MODES", "MODULE_MODES", "SUMMARY", "called_modules", "ModeRun", "ModesReport", "rewrite", "rewrite_tree", "run_modes", "modes_document", "SCHEMA"]

SCHEMA = "gradcli.modes/1"
MODES = ("as written", "no_grad", "set_grad_enabled(False)", "inference_mode", "detach()", "requires_grad_(False)",
         ".data", "model.eval()")
#: the modes that need an nn.Module called in the target's statement
MODULE_MODES = ("model.eval()",)
#: what each off-switch changes, in one line (PyTorch's documented semantics; the table shows it happen)
SUMMARY = {
    "no_grad": "ops inside record no graph: their results are leaves without requires_grad; nothing upstream "
               "gets a gradient through them",
    "set_grad_enabled(False)": "the same as no_grad, as a switch that can take a variable",
    "inference_mode": "like no_grad, and the results are inference tensors (no version counter): an op outside "
                      "inference_mode that must save one for backward fails",
    "detach()": "the target keeps its value but leaves the graph: a new leaf sharing its storage; in-place "
                "changes through it are still version-checked",
    "requires_grad_(False)": "allowed on leaves only: on a computed tensor it raises non_leaf_requires_grad",
    ".data": "like detach(), but outside autograd's checks: in-place changes through it are not "
             "version-checked (silently wrong gradients instead of an error)",
    "model.eval()": "not a grad switch: it only sets the module's training flag (dropout off, batch norm on its "
                    "running statistics); autograd still records, the output keeps its grad_fn",
}
_WITH = {"no_grad": "torch.no_grad()", "set_grad_enabled(False)": "torch.set_grad_enabled(False)",
         "inference_mode": "torch.inference_mode()"}


@dataclass
class TensorState:
    name: str
    shape: list
    requires_grad: bool
    is_leaf: bool
    grad_fn: Optional[str]
    grad: Any  # numpy array or None

    def flags(self) -> str:
        if self.grad_fn:
            return self.grad_fn
        return "leaf, rg" if self.requires_grad else "leaf, no rg"


@dataclass
class ModeRun:
    mode: str
    source: str
    ok: bool
    error: Optional[tuple] = None  # (kind, line)
    tensors: dict = field(default_factory=dict)  # name -> TensorState
    why: dict = field(default_factory=dict)  # name -> WhyNote


@dataclass
class ModesReport:
    """The runs of ``gradcli modes``: the file as written first, then each variant.

    failure: the RunResult of the file as written, when it failed (its error comes first in every
    output); then ``runs`` holds that run alone unless the failure left a target to switch; target: None
    when there was none.
    """

    file: str
    target: Optional[str]
    lines: list[int]
    runs: list[ModeRun]
    names: list[str]
    failure: Any = None

    def differs(self, mode_run: ModeRun, name: str) -> bool:
        """Does ``name`` have other flags or gradient in ``mode_run`` than in the file as written?"""
        import numpy as np

        base = self.runs[0].tensors.get(name)
        other = mode_run.tensors.get(name)
        if base is None or other is None:
            return (base is None) != (other is None)
        if base.flags() != other.flags():
            return True
        if (base.grad is None) != (other.grad is None):
            return True
        if base.grad is not None and (base.grad.shape != other.grad.shape or
                                      not np.allclose(base.grad, other.grad, equal_nan=True)):
            return True
        return False


def _binds(st: ast.stmt, name: str) -> bool:
    """Is ``st`` a simple statement that assigns ``name`` (plain, tuple, augmented or annotated)?"""
    if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return name in SourceInfo.names_bound(st)
    return False


def _target_statements(tree: Optional[ast.Module], name: str) -> list[ast.stmt]:
    """The statements outside any def/class that assign ``name``, in source order: the top level and the
    blocks of top-level ``if``/``for``/``while``/``with``/``try`` (``;``-separated ones included)."""
    out: list[ast.stmt] = []
    if tree is None:
        return out
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        st = stack.pop()
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if _binds(st, name):
            out.append(st)
            continue
        for sub in _blocks(st):
            stack.extend(reversed(sub))
    out.sort(key=lambda s: (s.lineno, s.col_offset))
    return out


def _blocks(st: ast.stmt) -> list[list]:
    """The statement lists inside a compound statement (bodies, else/finally blocks, except handlers)."""
    out = [getattr(st, f) for f in ("body", "orelse", "finalbody") if isinstance(getattr(st, f, None), list)]
    for h in getattr(st, "handlers", None) or ():
        out.append(h.body)
    for c in getattr(st, "cases", None) or ():
        out.append(c.body)
    return out


def _statements(info: SourceInfo, name: str) -> list[ast.stmt]:
    return _target_statements(info.tree, name)


def _located(node: ast.AST, where: ast.stmt, end: bool = False) -> ast.AST:
    """``node`` and everything in it at ``where``'s position (its end, for a statement that follows it)."""
    line = (where.end_lineno or where.lineno) if end else where.lineno
    col = (where.end_col_offset or 0) if end else where.col_offset
    for n in ast.walk(node):
        if "lineno" in n._attributes:
            n.lineno, n.col_offset = line, col
            n.end_lineno = where.end_lineno if not end else line
            n.end_col_offset = where.end_col_offset if not end else col
    return node


def _switched(st: ast.stmt, name: str, mode: str, modules: tuple = ()) -> list[ast.stmt]:
    """``st`` under ``mode``: in a ``with`` block, followed by the detach / requires_grad_(False), or after
    ``M.eval()`` for each of ``modules`` (dotted names)."""
    if mode == "model.eval()":
        return [_located(ast.parse(f"{m}.eval()").body[0], st) for m in _calls_in(st, modules)] + [st]
    if mode in _WITH:
        call = ast.parse(_WITH[mode], mode="eval").body
        node = ast.With(items=[ast.withitem(context_expr=call, optional_vars=None)], body=[st])
        _located(call, st)
        node.lineno, node.col_offset = st.lineno, st.col_offset
        node.end_lineno, node.end_col_offset = st.end_lineno, st.end_col_offset
        return [node]
    extra = f"{name} = {name}.detach()" if mode == "detach()" else \
        f"{name} = {name}.data" if mode == ".data" else f"{name}.requires_grad_(False)"
    return [st, _located(ast.parse(extra).body[0], st, end=True)]


def rewrite_tree(tree: ast.Module, name: str, mode: str, modules: tuple = ()) -> tuple[ast.Module, list[int]]:
    """A copy of ``tree`` with the statements that assign ``name`` under ``mode``, every node keeping its
    line and column (also for ``;``-separated statements, which no text rewrite can put in a ``with``
    without moving lines); (tree, lines changed)."""
    lines = [s.lineno for s in _target_statements(tree, name)]
    if mode == "as written" or not lines:
        return tree, lines
    new = copy.deepcopy(tree)
    targets = {id(s) for s in _target_statements(new, name)}

    def edit(body: list) -> list:
        out: list = []
        for st in body:
            if id(st) in targets:
                out.extend(_switched(st, name, mode, modules))
                continue
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for f in ("body", "orelse", "finalbody"):
                    if isinstance(getattr(st, f, None), list):
                        setattr(st, f, edit(getattr(st, f)))
                for h in getattr(st, "handlers", None) or ():
                    h.body = edit(h.body)
            out.append(st)
        return out

    new.body = edit(new.body)
    return new, lines


def rewrite(source: str, name: str, mode: str, modules: tuple = ()) -> tuple[str, list[int]]:
    """The source text of ``mode``'s variant; (text, lines changed).  Every line is kept when each target
    statement starts its line (the ``with`` goes in front of it, the detach after it on the same line);
    a target after a ``;`` moves to a line of its own (a ``with`` cannot follow ``;``), one line down.
    The runs use :func:`rewrite_tree`, which keeps every position; this text is for reading and for
    running the variant under PyTorch.  ``modules``: the dotted names ``model.eval()`` calls."""
    info = SourceInfo(source)
    stmts = _statements(info, name)
    if mode == "as written" or not stmts:
        return source, [s.lineno for s in stmts]
    lines = source.splitlines(keepends=True)
    # edit from the bottom up so earlier positions stay valid
    for st in sorted(stmts, key=lambda s: (s.lineno, s.col_offset), reverse=True):
        if mode == "model.eval()":
            i = st.lineno - 1
            b = lines[i].encode("utf-8")
            calls = "".join(f"{m}.eval(); " for m in _calls_in(st, modules)).encode()
            lines[i] = (b[:st.col_offset] + calls + b[st.col_offset:]).decode("utf-8")
        elif mode in _WITH:
            i = st.lineno - 1
            b = lines[i].encode("utf-8")
            head, body, tail = b[:st.col_offset], b[st.col_offset:], b""
            indent = head[:len(head) - len(head.lstrip())]
            prefix = f"with {_WITH[mode]}: ".encode()
            if head.strip():  # after `a = 1; `: the statement goes on a line of its own, at the line's indent
                prefix = b"\n" + indent + prefix
                head = head.rstrip().rstrip(b";").rstrip()
            if st.end_lineno == st.lineno and st.end_col_offset is not None:
                cut = st.end_col_offset - st.col_offset
                rest = body[cut:]
                if rest.lstrip().startswith(b";"):  # `; b = 2` after it: not in the with block
                    body, tail = body[:cut], b"\n" + indent + rest.lstrip()[1:].lstrip()
            lines[i] = (head + prefix + body + tail).decode("utf-8")
        else:
            extra = f"; {name} = {name}.detach()" if mode == "detach()" else \
                f"; {name} = {name}.data" if mode == ".data" else f"; {name}.requires_grad_(False)"
            i = (st.end_lineno or st.lineno) - 1
            b = lines[i].encode("utf-8")
            end = st.end_col_offset if st.end_col_offset is not None else len(b.rstrip(b"\r\n"))
            lines[i] = (b[:end] + extra.encode() + b[end:]).decode("utf-8")
    return "".join(lines), [s.lineno for s in stmts]


def _calls_in(st: ast.stmt, modules: tuple) -> list:
    """Those of ``modules`` (dotted names) that statement ``st`` itself calls, in ``modules``' order: a
    target assigned on several lines gets, on each, the eval() of what that line runs."""
    called = {dotted(n.func) for n in ast.walk(st) if isinstance(n, ast.Call)}
    return [m for m in modules if m in called]


def called_modules(statements: list, namespace: dict) -> tuple:
    """The dotted names (``model``, ``net.encoder``) that ``statements`` call and that are bound to an
    nn.Module in the run's top-level ``namespace``, in source order (PyTorch's ``Module.__call__`` is what
    ``model(x)`` runs; ``eval()`` switches those)."""
    from ..nn.module import Module

    out: list[str] = []
    for st in statements:
        for node in ast.walk(st):
            path = dotted(node.func) if isinstance(node, ast.Call) else ""
            if not path or path in out:
                continue
            head, *rest = path.split(".")
            obj = namespace.get(head)
            for part in rest:
                obj = getattr(obj, part, None) if isinstance(obj, Module) else None
            if isinstance(obj, Module):
                out.append(path)
    return tuple(out)


def _state(name: str, t: Any) -> TensorState:
    import numpy as np

    g = getattr(t, "_grad", None)
    fn = t._grad_fn
    return TensorState(name, [int(s) for s in t._data.shape], bool(t._requires_grad), fn is None,
                       None if fn is None else type(fn).__name__,
                       None if g is None else np.array(g._data, copy=True))


def default_target(result: Any, tree: Optional[ast.Module] = None) -> Optional[str]:
    """The first tensor the file computed with history (a non-leaf), else the first that requires grad.
    With ``tree``: only names the file assigns outside any def/class (a module's ``model.fc1.weight`` in the
    tensor list is not a statement to switch)."""
    names = [n for n, _ in result.tensors if tree is None or _target_statements(tree, n)]
    by_name = dict(result.tensors)
    for n in names:
        if by_name[n]._grad_fn is not None:
            return n
    for n in names:
        if by_name[n]._requires_grad:
            return n
    return None


def run_modes(source: Any, filename: str, options: Any, target: Optional[str] = None,
              argv: Optional[list] = None) -> ModesReport:
    """Run the file as written and under each off-switch.

    The file's own failure comes first: when the run as written fails, ``report.error`` is its error, and
    the variants run only when that failure leaves a target to switch (an error at run time after the
    target was assigned); a ``syntax``/``unsupported``/``limit`` failure, or one before any target, gives
    a report of the run as written alone.  When the file runs, UsageProblem (exit status 2) if there is
    no target to switch.  ``argv``: the command line, for the hint of a name error (app/run.py).
    """
    from ..lang.limits import DEFAULT_LIMITS
    from ..lang.parse import ParsedSource, tree_depth
    from ..lang.run import prepare, run_file, run_prepared
    from ..lang.validate import validate
    from .run import explain_name_error

    from ..lang.parse import source_text

    text = source_text(source)
    first = run_file(source, filename, options)
    explain_name_error(first, argv)
    error = first.error
    if error is not None and (error.kind in ("syntax", "unsupported", "limit") or not first.tensors):
        return ModesReport(filename, target, [], [_mode_run("as written", text, first, options)], [], failure=first)
    set_names = tuple(n.strip() for n, _ in options.sets)
    limits = DEFAULT_LIMITS.with_options(options)
    parsed = prepare(source, filename, limits, set_names)
    if target is None:
        target = default_target(first, parsed.tree)
        if target is None:
            if error is not None:
                return ModesReport(filename, None, [], [_mode_run("as written", text, first, options)], [],
                                   failure=first)
            raise UsageProblem("no tensor with autograd history to switch off in this file",
                               "Name the tensor with --target NAME.")
    statements = _target_statements(parsed.tree, target)
    lines = [s.lineno for s in statements]
    if not lines:
        if error is not None:
            return ModesReport(filename, target, [], [_mode_run("as written", text, first, options)], [],
                               failure=first)
        raise UsageProblem(f"--target {target}: no top-level assignment `{target} = ...` in {filename}",
                           "Name a tensor the file assigns at top level.")
    runs = [_mode_run("as written", text, first, options)]
    modules = called_modules(statements, first.namespace)
    for mode in MODES[1:]:
        if mode in MODULE_MODES and not modules:
            continue
        tree, _ = rewrite_tree(parsed.tree, target, mode, modules)
        problems = validate(tree, set_names)
        if problems:  # pragma: no cover - a rewrite the language refuses would be a bug of this module
            raise RuntimeError(f"modes: the {mode} variant is outside the language: {problems[0].message}")
        variant = ParsedSource(tree, parsed.text, parsed.filename, tree_depth(tree, limits.max_ast_depth))
        result = run_prepared(variant, options)
        runs.append(_mode_run(mode, rewrite(text, target, mode, modules)[0], result, options, tree))
    names: list[str] = []
    for run in runs:
        for n in run.tensors:
            if n not in names:
                names.append(n)
    return ModesReport(filename, target, lines, runs, names, failure=first if error is not None else None)


def _mode_run(mode: str, src: str, result: Any, options: Any, tree: Any = None) -> ModeRun:
    from .related import enrich
    from .why import explain_all

    enrich(result, options)
    run = ModeRun(mode, src, result.ok, None if result.error is None else (result.error.kind, result.error.line))
    for n, t in result.tensors:
        run.tensors[n] = _state(n, t)
    try:
        run.why = explain_all(result, None, tree)
    except Exception:  # the table does not need the notes
        run.why = {}
    return run


def modes_document(report: ModesReport) -> dict:
    from .records import tensor_values

    def tensor(s: TensorState) -> dict:
        return {"name": s.name, "shape": s.shape, "requires_grad": s.requires_grad, "is_leaf": s.is_leaf,
                "grad_fn": s.grad_fn, "grad": None if s.grad is None else tensor_values(s.grad)}

    from .records import error_record

    failure = report.failure
    return {
        "schema": SCHEMA,
        "file": report.file,
        "ok": failure is None,
        "error": None if failure is None else error_record(failure.error),
        "target": report.target,
        "lines": report.lines,
        "modes": [{
            "mode": r.mode,
            "summary": SUMMARY.get(r.mode),
            "ok": r.ok,
            "error": None if r.error is None else {"kind": r.error[0], "line": r.error[1]},
            "tensors": [tensor(r.tensors[n]) for n in report.names if n in r.tensors],
            "differs": [n for n in report.names if report.differs(r, n)] if i else [],
        } for i, r in enumerate(report.runs)],
    }
