"""The static check: one whitelist pass over the whole tree before anything runs (SPEC §2).

Every node type the language allows is listed in :data:`_ALLOWED`; any other
node is a problem naming the construct.  Context rules on top of the
whitelist:

* imports: only the modules SPEC §2b lists (exactly the oracle's set, ``ALLOWED_MODULES``), any alias,
  no ``*``; any other module is refused with a hint saying what to use instead (:func:`import_hint`);
  whether a module gradcli does not have yet, or a name a module lacks, is refused is decided when the
  file is compiled, against the namespaces themselves (``lang/imports.py``), still before anything runs;
* names: nothing starting with ``__`` (``__import__``, ``__builtins__`` ...) except reading
  ``__name__`` (``if __name__ == "__main__":``);
  a Python builtin the language does not provide (``eval``, ``open``,
  ``getattr``, ``type`` ...) used without being bound anywhere in the file is
  refused here rather than failing later as an undefined name;
* attributes: nothing starting with ``_`` but the ones PyTorch documents (``_version``, ``_base``,
  ``_is_view``, ``_saved_*``, ``_raw_saved_*``; the message lists them), and a few non-underscore names that
  exist only to reach interpreter internals (``gi_frame``, ``f_globals``,
  ``format`` ...) -- the run-time attribute whitelist refuses them anyway;
* keyword arguments and parameters named ``_...`` are refused (they could reach
  private parameters of engine functions);
* ``try``/``except``: an ``except`` names one of :data:`EXCEPTION_NAMES` (or a tuple of them, or a
  name the file binds, checked at run time); any other class is refused here, as a class the
  language lacks; a bare ``except:`` before another handler is CPython's syntax error;
* ``class NAME(torch.autograd.Function)`` / ``(Function)`` whose body is only
  defs, each plain or ``@staticmethod`` (PyTorch calls them through the class, so
  both run alike; other decorators such as ``@once_differentiable`` may join),
  docstrings and ``pass``;
* other classes (SPEC §2b: ``class Net(nn.Module)``, ``class D(Dataset)``, ``class EMA:``, subclasses of
  the file's own classes; :func:`_Checker._user_class`): at most one base, a dotted name (which class it
  is, is checked when the class statement runs); a body of methods, docstrings, ``pass`` and class
  attributes; method names starting with ``__`` only from :data:`USER_DUNDERS`; ``super().__init__`` is
  the one ``__`` attribute;
* what CPython's compiler (not its parser) rejects is reported as ``syntax``:
  ``return`` outside a function, ``break``/``continue`` outside a loop,
  duplicate parameter names, two starred targets.

:func:`validate` returns every problem, ordered: ``unsupported`` ones first
(as the oracle checks the subset before CPython compiles), each group in
source order; :func:`check` raises the first.  The walk is iterative.

:func:`has_backward_call` is the oracle's static test for the default backward.
"""

from __future__ import annotations

import ast
import builtins as _py_builtins
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from ..errors import GradcliError, error_class

__all__ = [
    "EXCEPTION_NAMES",
    "Problem",
    "validate",
    "check",
    "has_backward_call",
    "ALLOWED_BUILTINS",
    "bound_names",
    "dotted_name",
]

#: the exception classes a file can catch and raise (SPEC §2b; lang/exceptions.py)
EXCEPTION_NAMES = (
    "Exception", "RuntimeError", "ValueError", "TypeError", "IndexError", "KeyError", "AssertionError",
    "ZeroDivisionError", "NotImplementedError", "StopIteration", "AttributeError", "NameError", "LookupError",
    "ArithmeticError", "OverflowError", "UnboundLocalError",
)

#: the builtins the language provides (SPEC §2, plus a few cheap iteration helpers, and the exception classes)
ALLOWED_BUILTINS = frozenset(
    {
        "print", "range", "len", "float", "int", "bool", "abs", "min", "max", "sum", "list", "tuple",
        "round", "isinstance", "True", "False", "None", "enumerate", "zip", "reversed", "str", "dict",
        # SPEC §2b: the Python of real scripts
        "sorted", "map", "filter", "any", "all", "set", "frozenset", "super", "iter", "next", "hasattr",
        "getattr", "setattr", "delattr", "repr", "divmod", "type",
    }
) | frozenset(EXCEPTION_NAMES)

#: SPEC §2b: the modules a file may import, with any alias (exactly the oracle's set,
#: conformance/tools/torch_run.py ALLOWED_MODULES)
ALLOWED_MODULES = frozenset({
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.optim", "torch.autograd",
    "torch.autograd.functional", "torch.autograd.graph", "torch.autograd.forward_ad", "torch.utils",
    "torch.utils.checkpoint", "torch.utils.data", "torch.func", "math", "torch.nn.utils",
    "torch.optim.lr_scheduler", "torch.autograd.variable", "torch.autograd.anomaly_mode",
})

#: what to use instead of a module the language has no place for (the hint of the refusal)
_IMPORT_HINTS = {
    "numpy": "gradcli has no numpy: use torch.tensor(...) for np.array(...), and the torch function of the "
             "same name (torch.zeros, torch.exp, torch.matmul and so on) for np.X",
    "math": "use math.NAME after `import math`, or torch's function of the same name",
    "random": "use torch.rand / torch.randn / torch.randint (seeded by torch.manual_seed) for random numbers",
    "os": "files, processes and the environment are outside gradcli's sandbox: delete the import",
    "sys": "files, processes and the environment are outside gradcli's sandbox: delete the import",
    "subprocess": "files, processes and the environment are outside gradcli's sandbox: delete the import",
    "pathlib": "files are outside gradcli's sandbox: delete the import",
    "shutil": "files are outside gradcli's sandbox: delete the import",
    "matplotlib": "gradcli does not plot: print the values instead (gradcli shows every tensor after the run)",
    "seaborn": "gradcli does not plot: print the values instead (gradcli shows every tensor after the run)",
    "torchvision": "torchvision's datasets and models are not available: build the data with torch.randn / "
                   "torch.randint and a torch.utils.data.TensorDataset",
    "torchaudio": "torchaudio is not available: build the data with torch.randn",
    "torchtext": "torchtext is not available: build the data with torch.randint",
    "scipy": "gradcli has no scipy: use torch's functions",
    "pandas": "gradcli has no pandas: build the data with torch.tensor",
    "sklearn": "gradcli has no scikit-learn: build the data with torch.randn and write the model with torch.nn",
    "time": "time is not available in gradcli (runs are repeatable): delete the import",
    "tqdm": "progress bars are not available: iterate directly",
    "copy": "use tensor.clone() (or build a new module) instead of copy",
    "collections": "use dict and list",
    "itertools": "use for loops, zip, enumerate and range",
    "functools": "use def and lambda",
    "typing": "type annotations need no import in gradcli: delete the import",
    "__future__": "gradcli runs Python 3 semantics: delete the import",
    "torch.cuda": "gradcli runs on the CPU only: delete the import (torch.device('cpu') is the only device)",
    "torch.distributions": "torch.distributions is not available in gradcli",
}


def import_hint(module: str) -> str:
    """The hint of an ``unsupported import`` refusal: what to use instead of ``module``."""
    if module in _IMPORT_HINTS:
        return _IMPORT_HINTS[module]
    root = module.split(".")[0]
    if root == "torch":
        return ("gradcli offers only these torch modules: " + ", ".join(sorted(m for m in ALLOWED_MODULES
                                                                            if m != "math")))
    if root in _IMPORT_HINTS:
        return _IMPORT_HINTS[root]
    return "gradcli runs torch code only: the modules it can import are torch, torch.nn, torch.optim, " \
           "torch.autograd, torch.utils.data and math (see `gradcli ops` for what they hold)"

#: method names starting with ``__`` a file's class may define (SPEC §2b: the ones PyTorch defines for
#: Module, Sequential, ModuleList, Dataset and plain classes that a file can meaningfully override)
USER_DUNDERS = frozenset({
    "__init__", "__call__", "__len__", "__getitem__", "__setitem__", "__iter__", "__next__", "__repr__",
    "__str__", "__contains__",
})
#: the decorators a method may carry besides any torch object or function of the file
_METHOD_DECORATORS = frozenset({"staticmethod", "classmethod", "property"})

# constructs outside the subset, named as the oracle names them
_FORBIDDEN = {
    "TryStar": "try statement with except*",
    "Global": "global statement",
    "Nonlocal": "nonlocal statement",
    "AsyncFunctionDef": "async def",
    "AsyncFor": "async for",
    "AsyncWith": "async with",
    "Await": "await",
    "Yield": "yield",
    "YieldFrom": "yield from",
    "Match": "match statement",
    "NamedExpr": "assignment expression (:=)",
    "TypeAlias": "type alias statement",
}

# attributes that only exist to reach interpreter internals
_DENIED_ATTRS = frozenset(
    {
        "mro", "gi_frame", "gi_code", "gi_yieldfrom", "gi_running",
        "cr_frame", "cr_code", "cr_await", "ag_frame", "ag_code", "ag_await", "f_globals", "f_locals",
        "f_builtins", "f_back", "f_code", "f_trace", "tb_frame", "tb_next", "co_code", "co_consts",
        "func_globals", "func_code", "func_closure", "im_func", "im_self", "im_class", "cell_contents",
        "with_traceback", "fget", "fset", "fdel", "format_map",
    }
)

_ALLOWED = frozenset(
    {
        # statements
        "Module", "Expression", "Expr", "Assign", "AugAssign", "AnnAssign", "If", "For", "While", "Break",
        "Continue", "Pass", "FunctionDef", "Return", "Assert", "With", "withitem", "Import", "ImportFrom",
        "alias", "ClassDef", "Try", "ExceptHandler", "Raise", "Delete",
        # expressions
        "BoolOp", "BinOp", "UnaryOp", "Lambda", "IfExp", "Dict", "List", "Tuple", "ListComp", "DictComp",
        "GeneratorExp", "comprehension", "Set", "SetComp", "Compare", "Call", "keyword", "Starred", "FormattedValue",
        "JoinedStr", "Constant", "Attribute", "Subscript", "Slice", "Name", "arguments", "arg",
        # contexts
        "Load", "Store", "Del",
        # operators
        "And", "Or", "Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift", "RShift", "BitOr",
        "BitXor", "BitAnd", "FloorDiv", "Invert", "Not", "UAdd", "USub", "Eq", "NotEq", "Lt", "LtE",
        "Gt", "GtE", "Is", "IsNot", "In", "NotIn",
    }
)

_CONSTANT_TYPES = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))

# Python builtins that the language refuses by name (unless the file binds the name itself)
_PY_BUILTIN_NAMES = frozenset(n for n in dir(_py_builtins) if not n.startswith("_"))


@dataclass(frozen=True)
class Problem:
    """One construct outside the language: kind ``unsupported`` or ``syntax``."""

    kind: str
    message: str
    line: Optional[int]
    col: Optional[int]
    hint: Optional[str] = None

    def error(self) -> GradcliError:
        return error_class(self.kind)(self.message, self.hint, line=self.line, col=self.col)


def dotted_name(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for an Attribute/Name chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def has_backward_call(tree: ast.AST) -> bool:
    """Static: does the file call ``.backward(...)``, ``torch.autograd.backward`` or ``torch.autograd.grad``?

    Exactly the oracle's rule: any call of an attribute named ``backward``, or
    of ``grad`` on ``torch.autograd`` / ``autograd``.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "backward":
                return True
            if node.func.attr == "grad" and dotted_name(node.func.value) in ("torch.autograd", "autograd"):
                return True
    return False


def _target_names(t: ast.AST, out: list) -> None:
    if isinstance(t, ast.Name):
        out.append(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _target_names(e, out)
    elif isinstance(t, ast.Starred):
        _target_names(t.value, out)


_REGISTERS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


def file_private_names(tree: ast.AST) -> set[str]:
    """The single-``_`` names the file gives its own objects: methods and class attributes of its classes
    (``def _layer2_fn``), attributes it assigns (``self._cache = ...``), names it registers
    (``register_buffer("_mask", m)``).  Reading them is let through here; the gate
    (``classes.file_private_get``) then answers only for the file's own classes and never for a name an
    engine base uses, so ``self._modules`` stays out of reach even if a file assigns it."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef):
                    out.add(stmt.name)
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                        if isinstance(t, ast.Name):
                            out.add(t.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.add(node.args[0].value)
    return {n for n in out if n[:1] == "_" and n[:2] != "__" and not n.startswith("_gradcli")}


def bound_names(tree: ast.AST) -> set[str]:
    """Every name the file binds anywhere (targets, defs, classes, parameters, imports)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _pos(node: ast.AST) -> tuple[Optional[int], Optional[int]]:
    return getattr(node, "lineno", None), getattr(node, "col_offset", None)


class _Checker:
    def __init__(self, extra_names: Iterable[str] = ()) -> None:
        self.problems: list[Problem] = []
        self.extra_names = set(extra_names)
        self.starred_ok: set[int] = set()  # Starred nodes in call arguments, displays, targets
        self.method_ok: set[int] = set()  # defs in a class body whose __dunder__ name the class may define

    def add(self, kind: str, message: str, node: ast.AST, where: Optional[tuple] = None) -> None:
        line, col = where if where is not None else _pos(node)
        self.problems.append(Problem(kind, message, line, col))

    def unsupported(self, message: str, node: ast.AST, where: Optional[tuple] = None) -> None:
        self.add("unsupported", message, node, where)

    def run(self, tree: ast.AST) -> list[Problem]:
        bound = bound_names(tree) | self.extra_names
        own = file_private_names(tree)
        # stack items: (node, in_function, in_loop, where) -- where = nearest position for nodes without one
        stack: list[tuple[ast.AST, bool, bool, tuple]] = [(tree, False, False, (None, None))]
        while stack:
            node, in_func, in_loop, where = stack.pop()
            if hasattr(node, "lineno"):
                where = _pos(node)
            name = type(node).__name__
            if name in _FORBIDDEN:
                self.unsupported(f"unsupported construct: {_FORBIDDEN[name]}", node, where)
                continue
            if name not in _ALLOWED:
                self.unsupported(f"unsupported construct: {name}", node, where)
                continue
            children_func, children_loop = in_func, in_loop
            if isinstance(node, ast.Name):
                self._name(node, node.id, bound)
            elif isinstance(node, ast.Attribute):
                if (node.attr.startswith("_") and not _is_super_init(node) and not _documented_private(node.attr)
                        and node.attr not in own):
                    self.unsupported(f"unsupported attribute: {node.attr} ({_PRIVATE_NOTE})", node)
                elif node.attr in _DENIED_ATTRS:
                    self.unsupported(f"unsupported attribute: {node.attr} (outside the language)", node)
            elif isinstance(node, ast.Constant):
                if not isinstance(node.value, _CONSTANT_TYPES):
                    self.unsupported(f"unsupported constant: {type(node.value).__name__}", node)
            elif isinstance(node, ast.keyword):
                if node.arg is not None and node.arg.startswith("_"):
                    self.unsupported(f"unsupported keyword argument: {node.arg}", node, where)
            elif isinstance(node, ast.arg):
                if node.arg.startswith("__") and set(node.arg) != {"_"}:
                    self.unsupported(f"unsupported parameter name: {node.arg}", node, where)
            elif isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)
            elif isinstance(node, ast.FunctionDef):
                self._function(node)
                children_func, children_loop = True, False
            elif isinstance(node, ast.Lambda):
                self._arguments(node.args, node, "lambda")
                children_func, children_loop = True, False
            elif isinstance(node, ast.ClassDef):
                if _is_function_class(node):
                    self._class(node)
                else:
                    self._user_class(node)
                children_func, children_loop = False, False
            elif isinstance(node, ast.Return):
                if not in_func:
                    self.add("syntax", "'return' outside function", node)
            elif isinstance(node, ast.Break):
                if not in_loop:
                    self.add("syntax", "'break' outside loop", node)
            elif isinstance(node, ast.Continue):
                if not in_loop:
                    self.add("syntax", "'continue' not properly in loop", node)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    self._target(t, node)
            elif isinstance(node, ast.comprehension):
                if node.is_async:
                    self.unsupported("unsupported construct: async comprehension", node, where)
                self._target(node.target, node, where)
            elif isinstance(node, ast.withitem):
                if node.optional_vars is not None:
                    self._target(node.optional_vars, node, where)
            elif isinstance(node, ast.Try):
                self._try(node)
            elif isinstance(node, ast.ExceptHandler):
                if node.name is not None and node.name.startswith("__") and set(node.name) != {"_"}:
                    self.unsupported(f"unsupported name: {node.name}", node)
                if node.type is not None and not self._exception_spec(node.type, bound):
                    self.unsupported(
                        f"unsupported exception class: {ast.unparse(node.type)} (a file can catch "
                        f"{', '.join(EXCEPTION_NAMES)})", node.type)
                    # its names are refused by this problem already
                    for child in reversed(node.body):
                        stack.append((child, children_func, children_loop, where))
                    continue
            if isinstance(node, (ast.Call, ast.List, ast.Tuple)):
                starred_ok = node.args if isinstance(node, ast.Call) else node.elts
                skip = {id(e) for e in starred_ok if isinstance(e, ast.Starred)}
                for child in reversed(list(ast.iter_child_nodes(node))):
                    stack.append((child, children_func, children_loop, where))
                self.starred_ok.update(skip)
                continue
            if isinstance(node, ast.Starred) and id(node) not in self.starred_ok:
                self.add("syntax", "can't use starred expression here", node)
            if isinstance(node, (ast.For, ast.While)):
                # the loop body and else: body in a loop; else clause is not in the loop
                children = []
                for child in ast.iter_child_nodes(node):
                    children.append(child)
                body_ids = {id(s) for s in node.body}
                for child in reversed(children):
                    stack.append((child, in_func, id(child) in body_ids or in_loop, where))
                continue
            for child in reversed(list(ast.iter_child_nodes(node))):
                stack.append((child, children_func, children_loop, where))
        return self.problems

    # --- context rules -------------------------------------------------------------
    def _name(self, node: ast.AST, ident: str, bound: set[str]) -> None:
        # a name of underscores only (``for __ in range(3)``, a throwaway) is no Python special name
        if ident.startswith("__") and not (set(ident) == {"_"} and not isinstance(node, ast.Attribute)):
            if not (ident == "__name__" and isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                self.unsupported(f"unsupported name: {ident}", node)
        elif (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and ident in _PY_BUILTIN_NAMES
            and ident not in ALLOWED_BUILTINS
            and ident not in bound
        ):
            self.unsupported(f"unsupported builtin: {ident} (outside the language)", node)

    def _arguments(self, args: ast.arguments, node: ast.AST, what: str) -> None:
        names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        if args.vararg:
            names.append(args.vararg.arg)
        if args.kwarg:
            names.append(args.kwarg.arg)
        seen = set()
        for n in names:
            if n in seen:
                self.add("syntax", f"duplicate argument '{n}' in function definition", node)
            seen.add(n)

    def _function(self, node: ast.FunctionDef) -> None:
        if node.name.startswith("__") and id(node) not in self.method_ok:
            self.unsupported(f"unsupported function name: {node.name}", node)
        if getattr(node, "type_params", None):
            self.unsupported("unsupported construct: type parameters", node)
        self._arguments(node.args, node, "def")

    def _class(self, node: ast.ClassDef) -> None:
        if node.keywords:
            self.unsupported("unsupported class: a class statement takes no keywords (metaclass=...)", node)
        if node.decorator_list:
            self.unsupported("unsupported construct: class decorator", node.decorator_list[0])
        if getattr(node, "type_params", None):
            self.unsupported("unsupported construct: type parameters", node)
        if node.name.startswith("__"):
            self.unsupported(f"unsupported class name: {node.name}", node)
        for i, stmt in enumerate(node.body):
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
                stmt.value.value, str
            ):
                continue
            if isinstance(stmt, ast.FunctionDef):
                # PyTorch calls forward/backward/setup_context through the class (``cls.forward(ctx, ...)``),
                # so a def without @staticmethod runs the same; other decorators (@once_differentiable ...)
                # apply to the function.  @classmethod / @property would bind differently: refused.
                statics = [d for d in stmt.decorator_list if _is_staticmethod(d)]
                binders = [d for d in stmt.decorator_list
                           if isinstance(d, ast.Name) and d.id in _METHOD_DECORATORS and not _is_staticmethod(d)]
                if len(statics) <= 1 and not binders:
                    continue
                self.unsupported(
                    f"unsupported method: {stmt.name} in an autograd.Function is a plain def or a "
                    "@staticmethod (no @classmethod, @property or repeated @staticmethod)", stmt
                )
                continue
            self.unsupported(
                "unsupported class body: an autograd.Function body holds only method defs", stmt
            )

    def _try(self, node: ast.Try) -> None:
        for h in node.handlers[:-1]:
            if h.type is None:
                self.add("syntax", "default 'except:' must be last", h)

    def _exception_spec(self, t: ast.AST, bound: set[str]) -> bool:
        """Is ``except t`` a class (or tuple of classes) the language has?  A name the file binds
        (not a Python builtin) is checked when the handler runs."""
        if isinstance(t, ast.Tuple):
            return all(self._exception_spec(e, bound) for e in t.elts)
        if isinstance(t, ast.Name):
            return t.id in EXCEPTION_NAMES or (t.id in bound and t.id not in _PY_BUILTIN_NAMES)
        return False

    # --- SPEC §2b: imports and the file's own classes ------------------------------------------
    def _import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name not in ALLOWED_MODULES:
                self.problems.append(_hinted(f"unsupported import: {a.name}", import_hint(a.name), node))
            elif a.asname is not None and a.asname.startswith("__"):
                self.unsupported(f"unsupported import alias: {a.asname}", node)

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module not in ALLOWED_MODULES:
            shown = "." * (node.level or 0) + module
            self.problems.append(_hinted(f"unsupported import: from {shown} import "
                                         f"{', '.join(a.name for a in node.names)}",
                                         import_hint(module) if not node.level else
                                         "relative imports have no module to come from: import from torch",
                                         node))
            return
        for a in node.names:
            if a.name == "*":
                self.problems.append(_hinted(f"unsupported import: from {module} import *",
                                             f"name what you use: from {module} import NAME, NAME2", node))
            elif a.name.startswith("_"):
                self.unsupported(f"unsupported import: from {module} import {a.name}", node)
            elif a.asname is not None and a.asname.startswith("__"):
                self.unsupported(f"unsupported import alias: {a.asname}", node)

    def _user_class(self, node: ast.ClassDef) -> None:
        if len(node.bases) > 1 or node.keywords or any(dotted_name(b) is None for b in node.bases):
            self.unsupported("unsupported class: a class derives from at most one class, named by a dotted name "
                             "(nn.Module, torch.utils.data.Dataset, one of the file's classes)", node)
        if node.decorator_list:
            self.unsupported("unsupported construct: class decorator", node.decorator_list[0])
        if getattr(node, "type_params", None):
            self.unsupported("unsupported construct: type parameters", node)
        if node.name.startswith("__"):
            self.unsupported(f"unsupported class name: {node.name}", node)
        for stmt in node.body:
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
                stmt.value.value, str
            ):
                continue
            names = [stmt.name] if isinstance(stmt, ast.FunctionDef) else [
                t.id for t in (stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)])
                if isinstance(t, ast.Name)]
            if any(n.startswith("_gradcli") for n in names):
                self.unsupported("unsupported class attribute: names starting with _gradcli belong to gradcli's "
                                 "exposure protocol", stmt)
                continue
            if isinstance(stmt, ast.FunctionDef):
                if stmt.name.startswith("__"):
                    if stmt.name in USER_DUNDERS:
                        self.method_ok.add(id(stmt))
                    else:
                        self.unsupported(f"unsupported method name: {stmt.name} (a class may define only "
                                         f"{', '.join(sorted(USER_DUNDERS))})", stmt)
                continue
            if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
                continue
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                continue
            self.unsupported("unsupported class body: a class body holds methods (def), class attributes "
                             "(NAME = value), docstrings and pass", stmt)

    def _target(self, t: ast.AST, node: ast.AST, where: Optional[tuple] = None) -> None:
        if isinstance(t, (ast.Tuple, ast.List)):
            starred = [e for e in t.elts if isinstance(e, ast.Starred)]
            if len(starred) > 1:
                self.add("syntax", "multiple starred expressions in assignment", t)
            for e in t.elts:
                self._target(e.value if isinstance(e, ast.Starred) else e, node, where)
        elif isinstance(t, ast.Starred):
            self.add("syntax", "starred assignment target must be in a list or tuple", t)


#: the `_` attributes PyTorch documents that a file may read (SPEC §2b): Tensor._version, ._base, ._is_view(),
#: grad_fn._saved_* / ._raw_saved_* (which object has which is decided when it is read: lang/access.py)
_PRIVATE_NAMES = frozenset({"_version", "_base", "_is_view"})
_PRIVATE_FIELD = re.compile(r"_(raw_)?saved_[a-z0-9][a-z0-9_]*\Z")
_PRIVATE_NOTE = ("the `_` attributes a file may use are _version, _base, _is_view(), grad_fn._saved_* / _raw_saved_* "
                 "and the names the file gives its own classes and objects")


def _documented_private(attr: str) -> bool:
    return attr in _PRIVATE_NAMES or (_PRIVATE_FIELD.match(attr) is not None and not attr.endswith("__"))


def _is_staticmethod(d: ast.AST) -> bool:
    return isinstance(d, ast.Name) and d.id == "staticmethod"


def _is_function_class(node: ast.ClassDef) -> bool:
    """Is this ``class X(torch.autograd.Function)`` (by the base's spelling: ``Function``,
    ``autograd.Function``, ``torch.autograd.Function``)?  Its body keeps the Function rules."""
    if len(node.bases) != 1:
        return False
    return dotted_name(node.bases[0]) in ("torch.autograd.Function", "autograd.Function", "Function")


def _is_super_init(node: ast.Attribute) -> bool:
    """``super().__init__`` / ``super(Cls, self).__init__``: the one ``__`` attribute of the language."""
    v = node.value
    return (node.attr == "__init__" and isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
            and v.func.id == "super")


def _hinted(message: str, hint: str, node: ast.AST) -> "Problem":
    return Problem("unsupported", message, getattr(node, "lineno", None), getattr(node, "col_offset", None), hint)


def validate(tree: ast.AST, extra_names: Iterable[str] = ()) -> list[Problem]:
    """Every construct of ``tree`` outside the language, ``unsupported`` first, each in source order.

    ``extra_names``: names bound outside the tree (``--set`` names), so that a
    builtin name shadowed by one is not refused.
    """
    problems = _Checker(extra_names).run(tree)
    # staticmethod / classmethod / property decorating a method, and `object` as a class's base, are fine:
    # drop those refusals of builtin names
    allowed_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for b in node.bases:
                if isinstance(b, ast.Name) and b.id == "object":
                    allowed_names.add(("object", b.lineno, b.col_offset))
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef):
                    for d in stmt.decorator_list:
                        if isinstance(d, ast.Name) and d.id in _METHOD_DECORATORS:
                            allowed_names.add((d.id, d.lineno, d.col_offset))
    problems = [
        p
        for p in problems
        if not (p.message.startswith("unsupported builtin: ")
                and (p.message.split()[2], p.line, p.col) in allowed_names)
    ]

    def key(p: Problem):
        return (0 if p.kind == "unsupported" else 1, p.line or 0, p.col or 0)

    return sorted(problems, key=key)


def check(tree: ast.AST, extra_names: Iterable[str] = ()) -> None:
    """Raise the first problem of :func:`validate` as a GradcliError (``unsupported`` or ``syntax``)."""
    problems = validate(tree, extra_names)
    if problems:
        err = problems[0].error()
        err.problems = problems  # type: ignore[attr-defined]
        raise err
