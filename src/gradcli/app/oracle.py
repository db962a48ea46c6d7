"""The PyTorch oracle: run an expression file under real PyTorch and build its ``gradcli.run/1`` JSON.

This is the project's own rewrite of the conformance suite's reference runner
(``conformance/tools/torch_run.py``): the file runs as a real Python program
with the implicit prelude ``import torch`` / ``import torch.nn.functional as
F``, under the options of ``gradcli run`` (a :class:`~gradcli.lang.result.RunOptions`),
and the result is the JSON a correct ``gradcli run FILE [options] --json``
prints.  ``gradcli compare``, the live conformance test and the program
generator's differential test all read it.

Conventions (the conformance README's, where SPEC.md is silent):

* errors raised by the backward gradcli runs after the file (``--backward``,
  the default backward, ``--repeat``) have ``line``/``col`` null unless the
  innermost frame is in the file (a hook, a custom Function); ``col`` is
  0-based;
* a warning is reported once per (kind, line) with the line of the innermost
  frame in the file; reading ``.grad`` to build the JSON records none;
* ``--set`` number/list -> ``torch.tensor(VALUE, dtype=<default dtype>)``;
  ``--gradient`` ``ones`` -> ``torch.ones_like(NAME)``, number/list ->
  ``torch.tensor(VALUE, dtype=NAME.dtype)``, otherwise an expression evaluated
  after the file in its namespace;
* the default backward (no backward/grad call anywhere in the file and no
  ``--backward``) runs only when the last tensor bound at top level requires grad.

PyTorch is imported lazily (the ``torch`` extra: ``pip install 'gradcli[torch]'``).
PyTorch keeps process-wide state that a file can change and that gradcli's
semantics reset per run (default dtype, seed, the once-per-process
``create_graph`` warning), so :func:`run_isolated` runs each file in a forked
child (or a fresh interpreter where ``fork`` is unavailable).
:func:`run_document` runs in the calling process and restores the default
dtype and grad mode afterwards.

Command line (the same JSON on stdout; exit 0 ok, 1 the file failed, 2 bad invocation)::

    python -m gradcli.app.oracle [run] FILE [gradcli run options] [--ignore-header] [--walls]
    python -m gradcli.app.oracle --request -      # JSON {source, filename, options} on stdin

A ``# gradcli: OPTIONS`` first line of FILE is read first, as the conformance
tools do (``--ignore-header`` skips it).  ``--walls`` runs it as ``gradcli compare`` does: within
gradcli's surface, in a confined child (:func:`run_isolated` with ``walls``); what the walls refused
goes to stderr.

The oracle executes the file as Python: only the clear-cut constructs of the
language check below are refused before it runs.  Callers that take files
from elsewhere (``gradcli compare``) check them with gradcli's own static
check first and pass ``static_only=True`` for files it refuses, and run the
others with ``walls=True``: within gradcli's surface (:mod:`.oracle_walls`),
in a confined child (:mod:`.oracle_sandbox`).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import io
import json
import math
import os
import re
import shlex
import subprocess
import sys
import traceback
import warnings
from typing import Any, Optional

from ..lang.inputs import free_input_names, free_names
from ..lang.result import RunOptions
from .options import DEFAULT_JSON_MAX_ELEMENTS

__all__ = [
    "SCHEMA",
    "OracleUnavailable",
    "OracleInvocationError",
    "OracleFailure",
    "torch_available",
    "INSTALL_HINT",
    "run_document",
    "run_isolated",
    "warm_up",
    "header_options",
    "options_from_args",
    "dumps",
    "main",
]

SCHEMA = "gradcli.run/1"
PRELUDE = "import torch\nimport torch.nn.functional as F\n"
PRELUDE_NAMES = frozenset({"torch", "F"})
HEADER_RE = re.compile(r"^#\s*gradcli:(.*)$")
OBJ_ADDR_RE = re.compile(r" object at 0x[0-9a-fA-F]+>")
INSTALL_HINT = "pip install 'gradcli[torch]'"
#: the name the file's code is compiled under (frames of the file are found by it)
_CODE_PREFIX = "<gradcli-oracle>"


class OracleUnavailable(Exception):
    """PyTorch cannot be imported here."""

    def __init__(self, detail: str = "") -> None:
        msg = "PyTorch is not installed, so the PyTorch side cannot run"
        super().__init__(msg + (f" ({detail})" if detail else ""))
        self.detail = detail


class OracleInvocationError(Exception):
    """The options cannot be honoured (a bad ``--set``): exit status 2, as in gradcli."""


class OracleFailure(Exception):
    """The oracle process itself failed (crash, timeout): no JSON came back."""


def torch_available() -> bool:
    """True when ``import torch`` would find a module (cheap: does not import it)."""
    import importlib.util

    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):
        return False


def _torch() -> Any:
    from .. import host

    host.pin_torch()  # PyTorch's AVX2 kernels on every host (SPEC §2b Hosts), set before torch loads
    try:
        import torch
    except ImportError as e:
        raise OracleUnavailable(str(e)) from None
    return torch


_PRELOADED = False


def reference() -> dict:
    """Which PyTorch answers: ``{"torch": "2.13.0+cpu", "cpu_capability": "AVX2"}`` once it is loaded
    (``torch.backends.cpu.get_cpu_capability()``: AVX2 on every host, as :func:`_torch` pins it), else {}."""
    torch = sys.modules.get("torch")
    if torch is None:
        return {}
    try:
        cap = str(torch.backends.cpu.get_cpu_capability())
    except AttributeError:  # pragma: no cover - a torch without backends.cpu
        cap = "unknown"
    return {"torch": str(torch.__version__), "cpu_capability": cap}


def _preload(walls: bool = False) -> None:
    """Import PyTorch and the modules files reach (functional, checkpoint) before forking; with ``walls``
    also pair gradcli's surface with PyTorch's (:func:`.oracle_walls.surface`), once per process."""
    global _PRELOADED
    if not _PRELOADED:
        _torch()
        import torch.autograd.functional
        import torch.nn.functional
        import torch.utils.checkpoint  # noqa: F401

        _PRELOADED = True
    if walls:
        from ..lang import run  # noqa: F401 - gradcli's static check, imported before a child is confined
        from .oracle_walls import surface

        surface()


# --------------------------------------------------------------------------------------------
# error / warning kinds (SPEC §4), from PyTorch's exception type and message
# --------------------------------------------------------------------------------------------
MESSAGE_KINDS = [
    ("second_backward", r"Trying to backward through the graph a second time"),
    ("non_scalar_backward", r"grad can be implicitly created only for scalar outputs"),
    ("no_grad_fn", r"element \d+ of tensors does not require grad and does not have a grad_fn"),
    ("grad_shape", r"Mismatch in shape: grad_output\[\d+\] has a shape of"),
    ("unused_input", r"appears to not have been used in the graph"),
    ("input_no_grad", r"One of the differentiated Tensors does not require grad"),
    ("leaf_inplace", r"a leaf Variable that requires grad is being used in an in-place operation"),
    ("inplace_modified", r"has been modified by an inplace operation"),
    ("non_leaf_requires_grad", r"you can only change requires_grad flags of leaf variables"),
    ("retain_grad_no_grad", r"can't retain_grad on Tensor that has requires_grad=False"),
    ("requires_grad_dtype", r"[Oo]nly Tensors of floating point( and complex)? dtype can require gradients"),
    ("numpy_requires_grad", r"Can't call numpy\(\) on Tensor that requires grad"),
    ("item_non_scalar", r"cannot be converted to Scalar"),
    ("detach_view", r"Can't detach views in-place"),
    ("shape", r"The size of tensor a \(\d+\) must match the size of tensor b"
              r"|shapes cannot be multiplied"
              r"|is invalid for input of size"
              r"|size mismatch"
              r"|must match the existing size"
              r"|Sizes of tensors must match"
              r"|stack expects each tensor to be equal size"
              r"|inconsistent tensor size"
              r"|Expected size for first two dimensions of batch2 tensor"
              r"|doesn't match the broadcast shape"
              r"|are not broadcastable"),
]
WARNING_KINDS = [
    ("non_leaf_grad", r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed"),
    ("create_graph_cycle", r"Using backward\(\) with create_graph=True will create a reference cycle"),
]
IGNORED_WARNING_CATEGORIES = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


class Unsupported(Exception):
    """A construct outside the gradcli language subset (SPEC §2)."""

    def __init__(self, msg: str, node: Any) -> None:
        super().__init__(msg)
        self.lineno = getattr(node, "lineno", None)
        self.col = getattr(node, "col_offset", None)


def error_kind(exc: BaseException) -> str:
    wall = getattr(exc, "wall_kind", None)  # refused by compare's walls (oracle_walls, oracle_sandbox)
    if isinstance(wall, str):
        return wall
    if isinstance(exc, SyntaxError):
        return "syntax"
    if isinstance(exc, Unsupported):
        return "unsupported"
    if isinstance(exc, AssertionError):
        return "assertion"
    if isinstance(exc, NameError):
        return "name"
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    msg = str(exc)
    for kind, pat in MESSAGE_KINDS:
        if re.search(pat, msg):
            return kind
    return "runtime"


def warning_kind(msg: str) -> str:
    for kind, pat in WARNING_KINDS:
        if re.search(pat, msg):
            return kind
    return "other"


# --------------------------------------------------------------------------------------------
# the language subset: only the clear-cut constructs are checked here
# --------------------------------------------------------------------------------------------
# SPEC §2b: the imports, classes and statements of real autograd code -- exactly the shared reference
# runner's rules (conformance/tools/torch_run.py check_subset)
ALLOWED_MODULES = frozenset({
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.optim", "torch.autograd",
    "torch.autograd.functional", "torch.autograd.graph", "torch.autograd.forward_ad",
    "torch.utils", "torch.utils.checkpoint", "torch.utils.data", "torch.func", "math",
    "torch.nn.utils", "torch.optim.lr_scheduler", "torch.autograd.variable", "torch.autograd.anomaly_mode",
})
ALLOWED_BASES = frozenset({
    "torch.autograd.Function", "autograd.Function", "Function",
    "torch.nn.Module", "nn.Module", "Module",
    "torch.utils.data.Dataset", "data.Dataset", "Dataset",
    "torch.utils.data.IterableDataset", "data.IterableDataset", "IterableDataset",
    "torch.nn.Sequential", "nn.Sequential", "Sequential", "torch.nn.ModuleList", "nn.ModuleList",
    "object",
})
FORBIDDEN_NODES = {
    "TryStar": "try statement with except*",
    "Global": "global statement", "Nonlocal": "nonlocal statement",
    "AsyncFunctionDef": "async def", "AsyncFor": "async for", "AsyncWith": "async with",
    "Await": "await", "Yield": "yield", "YieldFrom": "yield from", "Match": "match statement",
}


def _dotted(node: Any) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _import_aliases(tree: ast.AST) -> dict:
    """The names the file's imports bind, each to the dotted path it stands for (``import torch as th``:
    th -> torch; ``from torch import nn as N``: N -> torch.nn)."""
    out: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _resolved(dotted: Optional[str], aliases: dict) -> Optional[str]:
    """``dotted`` with its first name replaced by what the file imported it as (``th.autograd.Function``
    -> ``torch.autograd.Function``)."""
    if not dotted:
        return dotted
    head, _, rest = dotted.partition(".")
    if head not in aliases:
        return dotted
    return aliases[head] + ("." + rest if rest else "")


def _is_super_call(node: Any) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def check_subset(tree: ast.AST) -> None:
    """Refuse the clear-cut constructs outside the language (the shared runner's check, SPEC §2b)."""
    own_classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    aliases = _import_aliases(tree)
    for node in ast.walk(tree):
        name = type(node).__name__
        if name in FORBIDDEN_NODES:
            raise Unsupported(f"unsupported construct: {FORBIDDEN_NODES[name]}", node)
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name not in ALLOWED_MODULES:
                    raise Unsupported(f"unsupported import: {a.name}", node)
        elif isinstance(node, ast.ImportFrom):
            if node.module not in ALLOWED_MODULES or node.level:
                raise Unsupported(f"unsupported import: from {node.module} import ...", node)
            for a in node.names:
                if a.name == "*":
                    raise Unsupported(f"unsupported import: from {node.module} import *", node)
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr.endswith("__") and not (
                    node.attr == "__init__" and _is_super_call(node.value)):
                raise Unsupported(f"unsupported attribute: {node.attr}", node)
        elif isinstance(node, ast.ClassDef):
            bases = [_dotted(b) for b in node.bases]
            if len(bases) > 1 or (bases and bases[0] not in ALLOWED_BASES | own_classes
                                  and _resolved(bases[0], aliases) not in ALLOWED_BASES) or node.keywords:
                raise Unsupported("unsupported class: only plain classes and subclasses of torch.autograd.Function, "
                                  "torch.nn.Module and torch.utils.data.Dataset (or of the file's own classes)", node)


def has_backward_call(tree: ast.AST) -> bool:
    """Static: does the file call .backward(...), torch.autograd.backward or torch.autograd.grad?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "backward":
                return True
            if node.func.attr == "grad" and _dotted(node.func.value) in ("torch.autograd", "autograd"):
                return True
    return False


# --------------------------------------------------------------------------------------------
# AST instrumentation: --requires-grad / --retain-grad / default-backward tracking
# --------------------------------------------------------------------------------------------
def _target_names(t: Any, out: list) -> None:
    if isinstance(t, ast.Name):
        out.append(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _target_names(e, out)
    elif isinstance(t, ast.Starred):
        _target_names(t.value, out)


def assigned_names(stmt: Any) -> list:
    out: list = []
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            _target_names(t, out)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        if not (isinstance(stmt, ast.AnnAssign) and stmt.value is None):
            _target_names(stmt.target, out)
    return out


def _call_stmt(func_expr: Any, args: list, where: Any) -> ast.Expr:
    node = ast.Expr(value=ast.Call(func=func_expr, args=args, keywords=[]))
    n: Any
    for n in ast.walk(node):
        n.lineno = where.lineno
        n.col_offset = where.col_offset
        n.end_lineno = where.end_lineno
        n.end_col_offset = where.end_col_offset
    return node


class Instrumenter:
    def __init__(self, requires: list, retains: list, track_name: Optional[str]) -> None:
        self.requires = list(dict.fromkeys(requires))
        self.retains = list(dict.fromkeys(retains))
        self.track_name = track_name

    def stmts(self, body: list, top: bool) -> list:
        out = []
        for s in body:
            self.children(s, top)
            out.append(s)
            names = assigned_names(s)
            if not names:
                continue
            for n in names:
                if n in self.requires:
                    out.append(_call_stmt(ast.Attribute(value=ast.Name(id=n, ctx=ast.Load()),
                                                        attr="requires_grad_", ctx=ast.Load()), [], s))
            for n in names:
                if n in self.retains:
                    out.append(_call_stmt(ast.Attribute(value=ast.Name(id=n, ctx=ast.Load()),
                                                        attr="retain_grad", ctx=ast.Load()), [], s))
            if top and self.track_name:
                out.append(_call_stmt(ast.Name(id=self.track_name, ctx=ast.Load()),
                                      [ast.Tuple(elts=[ast.Constant(value=n) for n in names], ctx=ast.Load())], s))
        return out

    def children(self, s: Any, top: bool) -> None:
        inner_top = top and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for fld in ("body", "orelse", "finalbody"):
            val = getattr(s, fld, None)
            if isinstance(val, list) and val and isinstance(val[0], ast.stmt):
                setattr(s, fld, self.stmts(val, inner_top))
        for h in getattr(s, "handlers", []) or []:
            h.body = self.stmts(h.body, inner_top)


# --------------------------------------------------------------------------------------------
# values
# --------------------------------------------------------------------------------------------
def _clean(v: Any) -> Any:
    if isinstance(v, list):
        return [_clean(x) for x in v]
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def _tolist(t: Any) -> Any:
    """t's values as nested lists; PyTorch's storage-less zero tensors (the gradient of sgn, ...) as zeros."""
    t = t.detach().cpu()
    if getattr(t, "_is_zerotensor", lambda: False)():
        import torch

        return torch.zeros(t.shape, dtype=t.dtype).tolist()
    return t.tolist()


def _summary(t: Any) -> dict:
    """A tensor above the JSON element limit as gradcli summarises it (SPEC §5, ``app.records``):
    shape, min, max (of the tensor's own kind: bool, int or float) and the mean in double."""
    t = t.detach().cpu()
    if getattr(t, "_is_zerotensor", lambda: False)():
        import torch

        t = torch.zeros(t.shape, dtype=t.dtype)
    lo, hi = t.min().item(), t.max().item()
    return {"truncated": True, "shape": list(t.shape), "min": _clean(lo), "max": _clean(hi),
            "mean": _clean(t.double().mean().item())}


def _values(t: Any, max_elements: int) -> Any:
    return _summary(t) if t.numel() > max_elements else _clean(_tolist(t))


def tensor_record(name: str, t: Any, max_elements: int = DEFAULT_JSON_MAX_ELEMENTS) -> dict:
    """One entry of ``tensors``; above ``max_elements`` elements, ``data``/``grad`` are summaries as gradcli's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grad = t.grad
    try:
        gf = t.grad_fn
    except RuntimeError:  # a view that may not be rebased after an in-place change of its base: no readable
        gf = None         # history (gradcli records it the same way: grad_fn null, a leaf)
    return {
        "name": name,
        "shape": list(t.shape),
        "dtype": str(t.dtype).replace("torch.", ""),
        "requires_grad": bool(t.requires_grad),
        "is_leaf": gf is None,
        "grad_fn": type(gf).__name__ if gf is not None else None,
        "retains_grad": bool(t.retains_grad),
        "data": _values(t, max_elements),
        "grad": _values(grad, max_elements) if grad is not None else None,
    }


_NOLIT = object()


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text.strip())
    except Exception:
        return _NOLIT


def _is_num_or_list(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float, list))


def cli_value(torch: Any, text: str, g: dict, like: Any = None, walls: Any = None) -> Any:
    """--set / --gradient VALUE: number or nested list -> tensor, else an expression (checked as gradcli
    checks it and through the gate, under ``walls``)."""
    if like is not None and text.strip() == "ones":
        return torch.ones_like(like)
    lit = _literal(text)
    if lit is not _NOLIT and _is_num_or_list(lit):
        if like is not None and (like.dtype.is_floating_point or like.dtype.is_complex):
            return torch.tensor(lit, dtype=like.dtype)
        if like is None:  # --set numbers are float tensors of the default dtype
            return torch.tensor(lit, dtype=torch.get_default_dtype())
        return torch.tensor(lit)
    if walls is not None:
        return eval(walls.compile_expression(text, g), g)  # checked as gradcli checks it; attributes gated
    return eval(compile(text, "<command line>", "eval"), g)  # the oracle runs real Python


# --------------------------------------------------------------------------------------------
# running
# --------------------------------------------------------------------------------------------
def _make_error(exc: BaseException, code_name: str) -> dict:
    line = col = None
    if isinstance(exc, SyntaxError):
        line = exc.lineno
        col = (exc.offset - 1) if exc.offset else 0
        message = exc.msg
    elif isinstance(exc, Unsupported):
        line, col, message = exc.lineno, exc.col, str(exc)
    else:
        for fs in traceback.extract_tb(exc.__traceback__):
            if fs.filename == code_name:
                line = fs.lineno
                col = getattr(fs, "colno", None)
        message = str(exc)
        # what a file that catches it prints (SPEC §2b): gradcli's error.torch_message
        return {"kind": error_kind(exc), "line": line, "col": col, "message": message, "hint": "",
                "torch_message": message}
    return {"kind": error_kind(exc), "line": line, "col": col, "message": message, "hint": "", "torch_message": None}


def _new_document(filename: str) -> dict:
    return {"schema": SCHEMA, "file": filename, "ok": True, "stdout": "", "tensors": [], "warnings": [],
            "error": None}


def run_document(source: str, filename: str, options: Optional[RunOptions] = None, *,
                 static_only: bool = False, walls: bool = False, report: Optional[dict] = None) -> Optional[dict]:
    """Run ``source`` under PyTorch with ``options``; the ``gradcli.run/1`` document.

    ``static_only``: parse and check only; returns the document of a
    ``syntax``/``unsupported`` error, or None when the file passes (nothing runs).
    ``walls``: run it within gradcli's surface (:mod:`.oracle_walls`: gradcli's own static check,
    the language's builtins, proxies, one attribute gate); ``report`` (a dict) then receives
    ``"refused"``, what the walls refused, each ``{"line", "what", "message"}``.
    Raises OracleUnavailable without PyTorch and OracleInvocationError for a bad ``--set``.
    """
    options = options if options is not None else RunOptions()
    result = _new_document(filename)
    code_name = f"{_CODE_PREFIX}{filename}"
    try:
        tree = ast.parse(source, filename=code_name)
        check_subset(tree)
    except (SyntaxError, Unsupported) as e:
        result["ok"] = False
        result["error"] = _make_error(e, code_name)
        return result
    specials: frozenset = frozenset()
    if walls:
        refusal, specials = _gradcli_static_check(source, filename, options)
        if refusal is not None:
            result["ok"] = False
            result["error"] = refusal
            if report is not None:
                report["refused"] = [{"line": refusal["line"], "what": "gradcli's static check",
                                      "message": refusal["message"]}]
            return result
    if static_only:
        return None
    torch = _torch()
    old_dtype = torch.get_default_dtype()
    old_grad = torch.is_grad_enabled()
    w = None
    if walls:
        from .oracle_walls import Walls

        w = Walls(code_name, specials)
        problem = w.import_problem(tree)  # gradcli resolves imports before anything runs
        if problem is not None:
            w.refused.append({"line": problem["line"], "what": "import", "message": problem["message"]})
            if report is not None:
                report["refused"] = list(w.refused)
            result["ok"] = False
            result["error"] = {"kind": "unsupported", "line": problem["line"], "col": problem["col"],
                               "message": problem["message"], "hint": "", "torch_message": None}
            return result
    try:
        with w if w is not None else contextlib.nullcontext():  # one call line: anomaly mode prints this stack
            return _execute(torch, tree, code_name, options, result, walls=w)
    finally:
        torch.set_default_dtype(old_dtype)
        torch.set_grad_enabled(old_grad)
        torch.set_printoptions(profile="default", sci_mode=None)  # a file's print options are its own
        if w is not None and report is not None:
            report["refused"] = list(w.refused)


def _gradcli_static_check(source: str, filename: str, options: RunOptions) -> tuple:
    """gradcli's own parse and check (``gradcli run``'s): (the error of a refused file or None, the builtin
    names the check accepted in one place only, :func:`.oracle_walls.accepted_builtins`)."""
    from ..errors import GradcliError
    from ..lang.limits import DEFAULT_LIMITS
    from ..lang.run import prepare
    from .oracle_walls import accepted_builtins

    try:
        parsed = prepare(source.encode("utf-8", "surrogatepass"), filename, DEFAULT_LIMITS.with_options(options),
                         tuple(n.strip() for n, _ in options.sets))
    except GradcliError as e:
        return {"kind": e.kind, "line": e.line, "col": e.col, "message": e.message, "hint": e.hint or "",
                "torch_message": None}, frozenset()
    return None, accepted_builtins(parsed.tree)


def _execute(torch: Any, tree: ast.Module, code_name: str, options: RunOptions, result: dict,
             walls: Any = None) -> dict:
    state: dict = {"last": None}
    seen_warnings: set = set()
    sets = []
    for name, text in options.sets:
        name = name.strip()
        if not name.isidentifier():
            raise OracleInvocationError(f"bad --set {name}={text}: expected NAME=VALUE")
        sets.append((name, text))
    explicit_backward = has_backward_call(tree)
    free = free_names(tree)

    track_name = "__oracle_track__"
    inst = Instrumenter(options.requires_grad, options.retain_grad, track_name)
    tree.body = inst.stmts(tree.body, top=True)
    if options.no_grad and tree.body:
        first, last = tree.body[0], tree.body[-1]
        ctx = ast.Call(func=ast.Name(id="__oracle_no_grad__", ctx=ast.Load()), args=[], keywords=[])
        w = ast.With(items=[ast.withitem(context_expr=ctx, optional_vars=None)], body=tree.body)
        for n in (w, ctx, ctx.func):
            n.lineno, n.col_offset = first.lineno, first.col_offset
            n.end_lineno, n.end_col_offset = last.end_lineno, last.end_col_offset
        tree.body = [w]
    if walls is not None:
        from .oracle_walls import rewrite

        tree = rewrite(tree)  # every attribute access through the gate, at the same positions
    code = compile(tree, code_name, "exec")

    g: dict = {"__name__": "__main__"}

    def track(names: tuple) -> None:
        for n in names:
            v = g.get(n)
            if isinstance(v, torch.Tensor):
                state["last"] = (n, v)

    extra = {track_name: track, "__oracle_no_grad__": torch.no_grad}
    if walls is not None:
        walls.fill_globals(g, tree, extra)  # torch/F proxies, the language's builtins, the gate
    else:
        import builtins as _b

        g["__builtins__"] = dict(_b.__dict__, **extra)
        exec(PRELUDE, g)  # the oracle runs real Python

    def showwarning(message: Any, category: Any, fname: Any, lineno: Any, file: Any = None,
                    line: Any = None) -> None:
        if issubclass(category, IGNORED_WARNING_CATEGORIES):
            return
        where = None
        f: Any = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == code_name:
                where = f.f_lineno
                break
            f = f.f_back
        msg = str(message)
        kind = warning_kind(msg)
        key = (kind, where)
        if key in seen_warnings:
            return
        seen_warnings.add(key)
        result["warnings"].append({"kind": kind, "line": where, "message": msg})

    out = io.StringIO()
    error = None
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = showwarning  # type: ignore[assignment]
        with contextlib.redirect_stdout(out):
            try:
                if options.dtype:
                    torch.set_default_dtype(getattr(torch, options.dtype))
                torch.manual_seed(options.seed)
                for name, text in sets:
                    try:
                        val = cli_value(torch, text, g, walls=walls)
                    except Exception as e:  # a bad --set is an invocation error
                        raise OracleInvocationError(f"bad --set {name}={text}: {e}") from None
                    g[name] = val
                    if name in options.requires_grad:
                        val.requires_grad_()
                    if name in options.retain_grad:
                        val.retain_grad()
                # free inputs (SPEC §3, as torch_run.py): a name the file reads but never binds, named by
                # --requires-grad / --retain-grad / --inputs, is bound first as torch.tensor(1.0)
                for name in free_input_names(options, free):
                    if name in g:
                        continue
                    val = torch.tensor(1.0)
                    g[name] = val
                    if name in options.requires_grad:
                        val.requires_grad_()
                    if name in options.retain_grad:
                        val.retain_grad()
                exec(code, g)
                _after_backward(torch, options, g, explicit_backward, state, walls)
            except OracleInvocationError:
                raise
            except Exception as e:  # the first error ends the run
                error = _make_error(e, code_name)
                if walls is not None:
                    walls.note_os_error(e)
    result["stdout"] = OBJ_ADDR_RE.sub(" object>", out.getvalue())
    if error is not None:
        result["ok"] = False
        result["error"] = error
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, v in list(g.items()):
            if name in PRELUDE_NAMES or (name.startswith("__") and name.endswith("__")):
                continue
            # a lazy module's parameter before its first call has no shape to record (as gradcli: no row)
            lazy = torch.nn.parameter.UninitializedParameter
            if isinstance(v, torch.Tensor):
                if not isinstance(v, lazy):
                    result["tensors"].append(tensor_record(name, v))
            elif isinstance(v, torch.nn.Module):  # SPEC §2b: a module's parameters, as NAME.PARAM
                for pn, p in v.named_parameters():
                    if not isinstance(p, lazy):
                        result["tensors"].append(tensor_record(f"{name}.{pn}", p))
    return result


def _after_backward(torch: Any, options: RunOptions, g: dict, explicit_backward: bool, state: dict,
                    walls: Any = None) -> None:
    """The backward gradcli runs after the file (``--backward`` or the default one)."""
    target = None
    if options.backward:
        target_name = options.backward
        if target_name not in g:
            raise NameError(f"name '{target_name}' is not defined")
        target = g[target_name]
        if not isinstance(target, torch.Tensor):
            raise TypeError(f"--backward {target_name}: not a tensor")
    elif not explicit_backward and state["last"] is not None:
        _, target = state["last"]
        if not target.requires_grad:
            target = None  # the default backward only runs on a tensor that requires grad
    if target is None:
        return
    kw: dict = {}
    if options.gradient is not None:
        kw["gradient"] = cli_value(torch, options.gradient, g, like=target, walls=walls)
    if options.retain_graph:
        kw["retain_graph"] = True
    if options.create_graph:
        kw["create_graph"] = True
    if options.inputs:
        names = [n.strip() for n in options.inputs if n.strip()]
        for n in names:
            if n not in g:
                raise NameError(f"name '{n}' is not defined")
        kw["inputs"] = [g[n] for n in names]
    for _ in range(options.repeat):
        target.backward(**kw)


# --------------------------------------------------------------------------------------------
# isolation: one process per file
# --------------------------------------------------------------------------------------------
_WARM_UP = """\
x = torch.randn(3, 4, requires_grad=True)
w = torch.rand(4, 2, dtype=torch.float32)
y = (x @ w).relu() + x.sum(dim=1, keepdim=True).exp() * torch.tensor([1, 2, 3]).reshape(3, 1)
z = F.softmax(y, dim=1).log() - F.log_softmax(y, -1) + F.gelu(y) + F.silu(y) + F.softplus(y)
l = F.mse_loss(z, torch.zeros_like(z)) + F.cross_entropy(y, torch.tensor([0, 1, 1])) + y.var() + y.norm()
l = l + torch.cat([x, x]).max() + torch.stack([x, x]).mean() + x[0, 1:].prod() + x.abs().sqrt().sum()
g, = torch.autograd.grad(l, [x], create_graph=True)
g.sum().backward()
print(x, x.grad, y.grad_fn, x.double().sin().cos().tanh().sigmoid(), x.long(), x > 0)
j = torch.autograd.functional.jacobian(lambda t: t.sin(), torch.tensor([1.0, 2.0]))
c = torch.utils.checkpoint.checkpoint(lambda t: t * 2, x, use_reentrant=False)
"""


def warm_up() -> None:
    """Make this process a quick parent for :func:`run_isolated`'s forked children.

    PyTorch initialises kernels lazily, which costs about a second in every
    child of a cold parent; this runs a small program here first.  It also
    sets PyTorch to one intra-op thread, so that no OpenMP thread pool exists
    to be lost across ``fork`` (the tensors of expression files are far below
    PyTorch's parallel grain size, so results do not change).  For test
    harnesses that run many files; ``gradcli compare`` runs one and does not call it.
    """
    _preload()
    torch = _torch()
    torch.set_num_threads(1)
    run_document(_WARM_UP, "<warm-up>")

def _request(source: str, filename: str, options: RunOptions, walls: bool = False, timeout: float = 60.0) -> dict:
    return {"source": source, "filename": filename, "options": dataclasses.asdict(options), "walls": walls,
            "timeout": timeout}


def _options_from_dict(d: dict) -> RunOptions:
    known = {f.name for f in dataclasses.fields(RunOptions)}
    kw = {k: v for k, v in d.items() if k in known}
    kw["sets"] = [tuple(p) for p in kw.get("sets", [])]
    return RunOptions(**kw)


def _answer(source: str, filename: str, options: RunOptions, walls: bool = False) -> dict:
    """``{"document": ...}`` or ``{"invocation": message}`` or ``{"unavailable": detail}``; under ``walls``
    also ``"walls": {"refused": [...]}``.  Only plain data: it crosses to the parent as JSON text."""
    report: dict = {}
    try:
        answer: dict = {"document": run_document(source, filename, options, walls=walls,
                                                 report=report if walls else None)}
    except OracleInvocationError as e:
        answer = {"invocation": str(e)}
    except OracleUnavailable as e:
        answer = {"unavailable": e.detail}
    if walls:
        answer["walls"] = report
    return answer


def _unpack(answer: dict, report: Optional[dict] = None) -> dict:
    if report is not None:
        report.update(answer.get("walls") or {})
    if "invocation" in answer:
        raise OracleInvocationError(answer["invocation"])
    if "unavailable" in answer:
        raise OracleUnavailable(answer["unavailable"])
    return answer["document"]


def run_isolated(source: str, filename: str, options: Optional[RunOptions] = None, *,
                 timeout: float = 60.0, fork: Optional[bool] = None, walls: bool = False,
                 report: Optional[dict] = None) -> dict:
    """:func:`run_document` in a process of its own, so PyTorch's process-wide state starts fresh.

    With ``fork`` (default where available) the child is forked from this
    process, which imports PyTorch once first: a few milliseconds per file.
    Otherwise a fresh ``python -m gradcli.app.oracle --request -`` runs it.
    ``walls`` (``gradcli compare``): the file sees only gradcli's surface (:mod:`.oracle_walls`) and
    the child is confined (:mod:`.oracle_sandbox`: own session, no network where the machine allows,
    a fresh empty folder, no inherited descriptors, resource limits, an audit hook); ``report``
    receives ``"refused"`` (the language walls), ``"process"`` (what confined the child, and the
    actions it refused) and ``"left"`` (names found in its folder afterwards: [] when the walls held).
    Raises OracleUnavailable, OracleInvocationError, or OracleFailure (crash, timeout).
    """
    options = options if options is not None else RunOptions()
    if fork is None:
        fork = hasattr(os, "fork")
    if not fork:
        return _run_subprocess(source, filename, options, timeout, walls, report)
    _preload(walls)  # import once in the parent; children inherit it
    return _unpack(_run_forked(lambda: _answer(source, filename, options, walls), timeout, walls=walls,
                               memory=options.max_memory), report)


#: most bytes of answer the parent reads from a walled child (a file printing without end is bounded here)
MAX_ANSWER = 256 << 20


def _run_forked(work: Any, timeout: float, *, walls: bool = False, memory: Optional[int] = None) -> dict:
    import select
    import signal
    import time

    from . import oracle_sandbox as sandbox

    workdir = sandbox.make_workdir() if walls else None
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child: never returns
        code = 0
        try:
            os.close(r)
            process = None
            if workdir is not None:
                process = sandbox.isolate()
                process.update(sandbox.confine(workdir, keep_fds=(w,), cpu_seconds=timeout, memory=memory))
                sandbox.audit_hook(process)
            answer = work()
            if process is not None:
                answer.setdefault("walls", {})["process"] = process
            payload = json.dumps(answer).encode()
        except BaseException:  # noqa: BLE001 - report anything to the parent
            payload = json.dumps({"crash": traceback.format_exc()}).encode()
            code = 70
        try:
            while payload:
                n = os.write(w, payload)
                payload = payload[n:]
            os.close(w)
        finally:
            os._exit(code)
    os.close(w)
    buf = bytearray()
    deadline = time.monotonic() + timeout

    def kill() -> None:
        try:
            os.killpg(pid, signal.SIGKILL) if walls and hasattr(os, "killpg") else os.kill(pid, signal.SIGKILL)
        except OSError:  # its session not made yet, or already gone
            os.kill(pid, signal.SIGKILL)

    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                kill()
                raise OracleFailure(f"PyTorch did not finish within {timeout:g} s")
            ready, _, _ = select.select([r], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(r, 1 << 16)
                if not chunk:
                    break
                buf += chunk
                if walls and len(buf) > MAX_ANSWER:
                    kill()
                    raise OracleFailure(f"the PyTorch side's answer exceeded {MAX_ANSWER >> 20} MiB")
    finally:
        os.close(r)
        _, status = os.waitpid(pid, 0)
        left_behind = sandbox.collect_workdir(workdir) if workdir is not None else None
    try:
        answer = json.loads(buf.decode())
    except ValueError:
        raise OracleFailure(f"the PyTorch process died (wait status {status})") from None
    if "crash" in answer:
        raise OracleFailure("the PyTorch process failed:\n" + answer["crash"])
    if left_behind is not None:
        answer.setdefault("walls", {})["left"] = left_behind
    return answer


def _run_subprocess(source: str, filename: str, options: RunOptions, timeout: float, walls: bool = False,
                    report: Optional[dict] = None) -> dict:
    from . import oracle_sandbox as sandbox

    cmd = [sys.executable, "-m", "gradcli.app.oracle", "--request", "-"]
    workdir = sandbox.make_workdir() if walls else None
    try:
        proc = subprocess.run(cmd, input=json.dumps(_request(source, filename, options, walls, timeout)),
                              capture_output=True, text=True, timeout=timeout, cwd=workdir, close_fds=True)
    except subprocess.TimeoutExpired:
        raise OracleFailure(f"PyTorch did not finish within {timeout:g} s") from None
    finally:
        left_behind = sandbox.collect_workdir(workdir) if workdir is not None else None
    try:
        answer = json.loads(proc.stdout)
    except ValueError:
        tail = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        raise OracleFailure(f"the PyTorch process failed: {tail[0]}") from None
    if left_behind is not None:
        answer.setdefault("walls", {})["left"] = left_behind
    return _unpack(answer, report)


def _serve_request(req: dict) -> dict:
    """The fresh interpreter's side of :func:`_run_subprocess` (confined first under walls)."""
    options = _options_from_dict(req.get("options", {}))
    walls = bool(req.get("walls"))
    process = None
    if walls:
        from . import oracle_sandbox as sandbox

        process = sandbox.isolate()  # before PyTorch starts any thread
        _preload(True)
        process.update(sandbox.confine(os.getcwd(), keep_fds=(1, 2), null_fds=(0,),
                                       cpu_seconds=float(req.get("timeout") or 60.0), memory=options.max_memory))
        sandbox.audit_hook(process)
    answer = _answer(req["source"], req["filename"], options, walls)
    if process is not None:
        answer.setdefault("walls", {})["process"] = process
    return answer


# --------------------------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------------------------
def header_options(src: str) -> list:
    """The options of a ``# gradcli: OPTIONS`` first line ([] without one)."""
    first = src.split("\n", 1)[0]
    m = HEADER_RE.match(first.strip())
    return shlex.split(m.group(1)) if m else []


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # type: ignore[override]
        raise _UsageError(message)


def _parser() -> _Parser:
    p = _Parser(prog="python -m gradcli.app.oracle", allow_abbrev=False,
                description="Run a gradcli expression file under PyTorch; print its gradcli.run/1 JSON.")
    p.add_argument("args", nargs="*", metavar="[run] FILE")
    p.add_argument("--request", metavar="-", help="read a JSON request {source, filename, options} from stdin")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--requires-grad", dest="requires_grad", action="append", default=[], metavar="NAME")
    p.add_argument("--retain-grad", dest="retain_grad", action="append", default=[], metavar="NAME")
    p.add_argument("--no-grad", action="store_true")
    p.add_argument("--backward", metavar="NAME")
    p.add_argument("--gradient", metavar="VALUE")
    p.add_argument("--inputs", metavar="NAME[,NAME]")
    p.add_argument("--retain-graph", action="store_true")
    p.add_argument("--create-graph", action="store_true")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--dtype", choices=["float32", "float64"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--expect-error", metavar="KIND")
    p.add_argument("--max-elements", type=int)
    p.add_argument("--max-steps", type=int)
    p.add_argument("--timeout", type=float)
    p.add_argument("--json-max-elements", type=int)
    p.add_argument("--trace", action="store_true")
    p.add_argument("--show")
    p.add_argument("--debug", action="store_true")
    p.add_argument("--ignore-header", action="store_true", help="do not read the '# gradcli:' header of FILE")
    p.add_argument("--walls", action="store_true",
                   help="run FILE as gradcli compare does: within gradcli's surface, in a confined process")
    return p


def _namespace_options(ns: argparse.Namespace) -> RunOptions:
    sets = []
    for s in ns.sets:
        if "=" not in s or not s.split("=", 1)[0].strip().isidentifier():
            raise _UsageError(f"bad --set {s!r}: expected NAME=VALUE")
        n, v = s.split("=", 1)
        sets.append((n.strip(), v))
    inputs = [n.strip() for n in ns.inputs.split(",") if n.strip()] if ns.inputs else None
    return RunOptions(sets=sets, requires_grad=list(ns.requires_grad), retain_grad=list(ns.retain_grad),
                      no_grad=ns.no_grad, backward=ns.backward, gradient=ns.gradient, inputs=inputs,
                      retain_graph=ns.retain_graph, create_graph=ns.create_graph, repeat=ns.repeat,
                      dtype=ns.dtype, seed=ns.seed)


def options_from_args(args: list) -> RunOptions:
    """``gradcli run`` option words (e.g. a case header) -> RunOptions; ValueError for bad ones."""
    try:
        ns = _parser().parse_intermixed_args(list(args) + ["FILE"])
        return _namespace_options(ns)
    except _UsageError as e:
        raise ValueError(str(e)) from None


def dumps(obj: Any, indent: int = 0) -> str:
    """JSON text as the conformance expectations are written: objects indented, value arrays on one line."""
    pad = "  " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}  {json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list) and any(isinstance(x, dict) for x in obj):
        items = [f"{pad}  {dumps(v, indent + 1)}" for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


def main(argv: Optional[list] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser()
    try:
        pre = parser.parse_intermixed_args(argv)
        if pre.request is not None:
            answer = _serve_request(json.loads(sys.stdin.read()))
            sys.stdout.write(json.dumps(answer) + "\n")
            return 0
        args = pre.args
        if len(args) == 2 and args[0] == "run":
            args = args[1:]
        if len(args) != 1:
            raise _UsageError("expected: [run] FILE")
        path = args[0]
        if path == "-":
            src = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                src = fh.read()
        hdr = [] if pre.ignore_header else header_options(src)
        ns = parser.parse_intermixed_args(hdr + argv)
        options = _namespace_options(ns)
        name = "<stdin>" if path == "-" else path
        if ns.walls:
            report: dict = {}
            try:
                doc = run_isolated(src, name, options, timeout=options.timeout or 120.0, walls=True, report=report)
            except OracleFailure as e:
                sys.stderr.write(f"oracle: error: {e}\n")
                return 1
            from .compare import walls_stop

            stop = walls_stop(report)
            if stop:
                sys.stderr.write(f"oracle: the walls stopped the file: {stop}\n")
        else:
            doc = run_document(src, name, options)
    except (_UsageError, OracleInvocationError, ValueError) as e:
        sys.stderr.write(f"oracle: error: {e}\n")
        return 2
    except OSError as e:
        sys.stderr.write(f"oracle: error: cannot read file: {e}\n")
        return 2
    except OracleUnavailable as e:
        sys.stderr.write(f"oracle: error: {e}; install it with: {INSTALL_HINT}\n")
        return 2
    assert doc is not None
    sys.stdout.write(dumps(doc) + "\n")
    sys.stdout.flush()
    if ns.expect_error:
        err = doc["error"]
        return 0 if (err is not None and err["kind"] == ns.expect_error) else 1
    return 0 if doc["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
