"""The unknown-API check (issue 19): PyTorch names gradcli does not implement, found before anything runs.

``torch.nn.Linear``, ``torch.fft.fft`` or ``x.cuda()`` are real PyTorch 2.13; a file that uses them cannot
run in gradcli as it runs in PyTorch, so -- like every construct outside the language (SPEC §2) -- they are
an ``unsupported`` error before the first statement runs, naming the name and saying that PyTorch has it.

**What gradcli implements is never a list kept here**: it is read from the live objects a file sees -- the
``torch``/``F`` namespaces :func:`gradcli.api.make_globals` builds (and every namespace reachable from them,
with their lazy members) and the Tensor class's ``_gradcli_public`` -- through the exposure protocol
(:func:`gradcli.lang.access.public_names`).  A name another part of gradcli adds is accepted as soon as it
is there.  What PyTorch 2.13 has is the list recorded from real PyTorch by
``tests/lang/record_torch_api.py`` (``data/torch_api.json``): ``dir()`` of its modules and classes.

**Statically** (:func:`api_problems`), an attribute is checked when the checker knows its receiver:

* a module: ``torch``, ``F`` (the prelude), a name bound by ``import``/``from ... import`` of a module, or a
  name assigned exactly once from such a module (``nn = torch.nn``) -- and the chains through them
  (``torch.nn.functional.X``); a name the file binds in any other way (a parameter called ``F``) is not;
* a tensor: a call of an operation that returns a tensor (``torch.tensor(...)``, ``torch.randn(...)``,
  ``x.exp()`` ...), arithmetic with a tensor, an index of one, and a name assigned exactly once, from such
  an expression.

Everything else -- a user's own objects, modules and datasets, a value whose type depends on the run --
is checked **at run time** by :func:`attribute_error` with the same message.

A name PyTorch 2.13 does not have either (``torch.tensr``, ``y.summ()``) is the file's own mistake, which
PyTorch reports when the line runs: gradcli does the same (SPEC §1: which line fails with which error
kind), an AttributeError of kind ``runtime`` with PyTorch's message, and its hint names the closest name
gradcli implements (difflib); ``gradcli lint`` reports it before running.
"""

from __future__ import annotations

import ast
import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Optional

from ..errors import GradcliError, error_class

__all__ = ["api_problems", "attribute_error", "torch_has", "closest", "unknown_names", "ApiProblem", "TORCH_VERSION"]

TORCH_VERSION = "2.13"


@lru_cache(maxsize=1)
def _torch_api() -> dict:
    """PyTorch 2.13's public names (data/torch_api.json): ``{"modules": {dotted: [names]}, "classes": ...}``."""
    try:
        text = resources.files("gradcli.lang").joinpath("data/torch_api.json").read_text("utf-8")
        return json.loads(text)
    except (OSError, ValueError):  # pragma: no cover - a broken install: the check names no PyTorch facts
        return {"modules": {}, "classes": {}}


def torch_has(owner: str, name: str) -> Optional[bool]:
    """Does PyTorch 2.13 have ``owner.name``?  ``owner``: a module (``torch.nn``) or a class
    (``torch.Tensor``); None when the list does not know ``owner``."""
    api = _torch_api()
    names = api["modules"].get(owner)
    if names is None:
        names = api["classes"].get(owner)
    if names is None:
        return None
    return name in names


def closest(name: str, candidates: Iterable[str]) -> Optional[str]:
    """The candidate most like ``name`` (difflib, for typos), or None."""
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.75)
    return found[0] if found else None


# ---------------------------------------------------------------------------------------------
# gradcli's live surface
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _prelude() -> dict:
    from ..api import make_globals

    return dict(make_globals())


def _public(obj: Any) -> Optional[frozenset]:
    from .access import public_names

    return public_names(obj)


def _module_name(obj: Any) -> Optional[str]:
    """The dotted name of a gradcli namespace object (``torch.nn``), else None."""
    from ..api import Namespace

    if not isinstance(obj, Namespace):
        return None
    name = obj.__dict__.get("_name")
    return name if isinstance(name, str) else None


def _member(module: Any, name: str) -> Any:
    """``module.name`` without importing a lazy member (None then: it is no namespace)."""
    lazy = module.__dict__.get("_lazy") or {}
    if name in lazy and name not in module.__dict__:
        return None
    try:
        return getattr(module, name)
    except Exception:  # noqa: BLE001 - a member that cannot be read is not a namespace to walk
        return None


def _tensor_class() -> type:
    from ..autograd.tensor import Tensor

    return Tensor


@lru_cache(maxsize=1)
def _tensor_ops() -> frozenset:
    """Functions and methods that always return one tensor (from the op registry's families)."""
    from ..ops.registry import REGISTRY

    always = {"creation", "random", "elementwise", "linalg", "misc", "comparison", "logic", "nn", "conversion"}
    several = {"split", "chunk", "unbind", "max", "min", "sort", "topk", "manual_seed", "type", "tolist",
               # conversions that give no tensor: a storage, an address, an offset, a bool
               "untyped_storage", "data_ptr", "storage_offset", "is_set_to"}
    out = {"detach", "clone", "contiguous", "view", "view_as", "expand", "expand_as", "repeat"}
    for op in REGISTRY.values():
        if op.group in always or op.group in ("shape", "reduction"):
            out.update(n for n in (*op.torch, *op.methods, *op.F) if not n.startswith("__"))
    return frozenset(out - several)


# ---------------------------------------------------------------------------------------------
# the static check
# ---------------------------------------------------------------------------------------------
class _Scope:
    """What the checker knows of the file's names: modules, tensors, and how often each name is bound."""

    def __init__(self, tree: ast.AST, extra_names: Iterable[str]) -> None:
        self.bindings: dict[str, int] = {}
        for n in extra_names:
            self.bindings[n] = self.bindings.get(n, 0) + 1
        self.imports: dict[str, Any] = {}  # name -> module object, from import statements
        self.assigned: dict[str, ast.AST] = {}  # name -> value of its one plain assignment
        for node in ast.walk(tree):
            for name in _bound_by(node):
                self.bindings[name] = self.bindings.get(name, 0) + 1
        self.tree = tree

    def once(self, name: str) -> bool:
        return self.bindings.get(name, 0) == 1


def _bound_by(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    return []


class _Checker:
    def __init__(self, tree: ast.AST, extra_names: Iterable[str]) -> None:
        self.scope = _Scope(tree, extra_names)
        self.prelude = _prelude()
        self.problems: list[Any] = []
        self.Tensor = _tensor_class()
        self.tensor_ops = _tensor_ops()
        self._names: dict[str, Any] = {}
        self._resolving: set[str] = set()
        self.unknown: list[tuple[ast.Attribute, str, str, Optional[bool]]] = []

    # --- what a name or expression is --------------------------------------------------------
    def module_path(self, dotted: str) -> Any:
        """The gradcli namespace of an imported module path (``torch.nn.functional``), or None."""
        parts = dotted.split(".")
        obj = self.prelude.get("torch") if parts[0] == "torch" else None
        if obj is None:
            return None
        for p in parts[1:]:
            pub = _public(obj)
            if pub is None or p not in pub or _module_name(obj) is None:
                return None
            obj = _member(obj, p)
        return obj if _module_name(obj) is not None else None

    def name_value(self, name: str) -> Any:
        """A module object, ``TENSOR``, or None (unknown) for a Name the file reads."""
        if name in self._names:
            return self._names[name]
        value = None
        count = self.scope.bindings.get(name, 0)
        if name in self.scope.imports and count == 1:
            value = self.scope.imports[name]
        elif name in self.prelude and count == 0:
            value = self.prelude[name]
        elif name in self.scope.assigned and count == 1 and name not in self._resolving:
            self._resolving.add(name)
            value = self.value(self.scope.assigned[name])
            self._resolving.discard(name)
        self._names[name] = value
        return value

    def value(self, node: ast.AST) -> Any:
        """What the checker knows an expression to be: a namespace object, TENSOR, or None."""
        if isinstance(node, ast.Name):
            return self.name_value(node.id)
        if isinstance(node, ast.Attribute):
            base = self.value(node.value)
            if base is TENSOR:
                return TENSOR if node.attr in ("T", "mT", "data") else None
            if base is not None and _module_name(base) is not None:
                pub = _public(base) or frozenset()
                return _member(base, node.attr) if node.attr in pub else None
            return None
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in self.tensor_ops:
                base = self.value(f.value)
                if base is TENSOR or (base is not None and _module_name(base) in ("torch", "torch.nn.functional")):
                    return TENSOR
            return None
        if isinstance(node, ast.BinOp):
            if self.value(node.left) is TENSOR or self.value(node.right) is TENSOR:
                return TENSOR
            return None
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            return TENSOR if self.value(node.operand) is TENSOR else None
        if isinstance(node, ast.Subscript):
            return TENSOR if self.value(node.value) is TENSOR else None
        return None

    # --- the walk ------------------------------------------------------------------------------
    def run(self, tree: ast.AST) -> list:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    mod = self.module_path(a.name)
                    if mod is None:
                        continue
                    if a.asname:
                        self.scope.imports[a.asname] = mod
                    else:
                        root = self.module_path(a.name.split(".")[0])
                        if root is not None:
                            self.scope.imports[a.name.split(".")[0]] = root
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                mod = self.module_path(node.module)
                if mod is None:
                    continue
                pub = _public(mod) or frozenset()
                for a in node.names:
                    if a.name == "*":
                        continue
                    if a.name not in pub:
                        self.missing(node, _module_name(mod) or node.module, a.name, pub, imported=True)
                        continue
                    member = _member(mod, a.name)
                    if _module_name(member) is not None:
                        self.scope.imports[a.asname or a.name] = member
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.scope.assigned[node.targets[0].id] = node.value
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and not node.attr.startswith("_"):
                base = self.value(node.value)
                if base is None:
                    continue
                if base is TENSOR:
                    pub = _public(self.Tensor) or frozenset()
                    if node.attr not in pub:
                        self.missing(node, "torch.Tensor", node.attr, pub)
                    continue
                module = _module_name(base)
                if module is not None:
                    pub = _public(base) or frozenset()
                    if node.attr not in pub:
                        self.missing(node, module, node.attr, pub)
        return self.problems

    def missing(self, node: ast.AST, owner: str, name: str, implemented: Iterable[str], imported: bool = False) -> None:
        has = torch_has(owner, name)
        if has:
            message, hint = unsupported_text(owner, name, implemented)
            line, col = _name_position(node, name)
            self.problems.append(ApiProblem("unsupported", message, line, col, hint))
        elif not imported:
            self.unknown.append((node, owner, name, has))


def _name_position(node: ast.AST, name: str) -> tuple[Optional[int], Optional[int]]:
    """Where ``name`` itself is: the attribute after the dot (``x.cuda``: at ``cuda``), else the node."""
    if isinstance(node, ast.Attribute) and node.end_col_offset is not None:
        return node.end_lineno, max(0, node.end_col_offset - len(name.encode("utf-8")))
    return getattr(node, "lineno", None), getattr(node, "col_offset", None)


@dataclass(frozen=True)
class ApiProblem:
    """A PyTorch name gradcli does not implement (the fields of ``lang.validate.Problem``, and a hint)."""

    kind: str
    message: str
    line: Optional[int]
    col: Optional[int]
    hint: str = ""

    def error(self) -> GradcliError:
        return error_class(self.kind)(self.message, self.hint, line=self.line, col=self.col)


class _Tensor:
    def __repr__(self) -> str:
        return "TENSOR"


#: what the checker knows a tensor-valued expression to be
TENSOR = _Tensor()


def _owner_label(owner: str) -> str:
    return "Tensor" if owner == "torch.Tensor" else owner


def unsupported_text(owner: str, name: str, implemented: Iterable[str]) -> tuple[str, str]:
    """Message and hint of a PyTorch name gradcli does not implement."""
    label = f"{_owner_label(owner)}.{name}"
    message = f"`{label}` is PyTorch {TORCH_VERSION} API that gradcli does not implement"
    near = closest(name, implemented)
    hint = ("gradcli runs a subset of PyTorch on its own engine (`gradcli ops` lists the operations); run "
            "this file with PyTorch itself")
    if near is not None:
        hint += f", or use `{_owner_label(owner)}.{near}` if that is what you meant"
    return message, hint + "."


def typo_hint(owner: str, name: str, implemented: Iterable[str]) -> str:
    """Hint of an AttributeError for a name PyTorch 2.13 does not have either."""
    label = f"{_owner_label(owner)}.{name}"
    near = closest(name, implemented)
    text = f"PyTorch {TORCH_VERSION} has no `{label}` either (an AttributeError there too)"
    if near is not None:
        return text + f". Did you mean `{_owner_label(owner)}.{near}`?"
    return text + "; `gradcli ops` lists what gradcli implements."


def api_problems(tree: ast.AST, extra_names: Iterable[str] = ()) -> list[ApiProblem]:
    """The ``unsupported`` problems of ``tree``: every PyTorch 2.13 name it uses on a receiver the checker
    knows (see the module doc) that gradcli does not implement, in source order.  ``extra_names``: names
    bound before the file (``--set``)."""
    return sorted(_Checker(tree, extra_names).run(tree), key=lambda p: (p.line or 0, p.col or 0))


def unknown_names(tree: ast.AST, extra_names: Iterable[str] = ()) -> list[dict]:
    """Names used on a receiver the checker knows that neither gradcli nor PyTorch 2.13 has (typos): what
    ``gradcli lint`` reports; ``{"line", "col" (of the name), "node" (the attribute's start), "owner",
    "name", "known" (whether the PyTorch list knows the owner), "suggestion"}`` in source order."""
    checker = _Checker(tree, extra_names)
    checker.run(tree)
    out = []
    for node, owner, name, has in checker.unknown:
        base = checker.value(node.value) if isinstance(node, ast.Attribute) else None
        implemented = _public(checker.Tensor if owner == "torch.Tensor" else base) or ()
        line, col = _name_position(node, name)
        out.append({"line": line, "col": col, "node": (node.lineno, node.col_offset), "owner": owner,
                    "name": name, "known": has is not None, "suggestion": closest(name, implemented)})
    return sorted(out, key=lambda d: (d["line"], d["col"]))


# ---------------------------------------------------------------------------------------------
# at run time
# ---------------------------------------------------------------------------------------------
def _owner_of(obj: Any) -> Optional[str]:
    """The PyTorch owner of a gradcli object's attributes: a module name, ``torch.Tensor``, or a class a
    gradcli type declares with ``_gradcli_torch_class`` (``torch.nn.Module`` ...); None for others."""
    module = _module_name(obj)
    if module is not None:
        return module
    if isinstance(obj, _tensor_class()):
        return "torch.Tensor"
    declared = getattr(type(obj), "_gradcli_torch_class", None)
    return declared if isinstance(declared, str) else None


def attribute_error(obj: Any, name: str, default: GradcliError) -> GradcliError:
    """The error for user code reading ``obj.name`` that gradcli does not expose (``lang.access``).

    For a gradcli module, tensor or declared class: a name PyTorch 2.13 has is ``unsupported`` (the
    message of the static check); one it lacks keeps ``default`` (PyTorch's AttributeError text, kind
    ``runtime``) with the hint naming the closest implemented name.  Other objects: ``default``.
    """
    owner = _owner_of(obj)
    if owner is None or not name or name.startswith("_"):
        return default
    implemented = _public(obj) or ()
    if torch_has(owner, name):
        message, hint = unsupported_text(owner, name, implemented)
        return error_class("unsupported")(message, hint)
    if not getattr(default, "hint", ""):
        default.hint = typo_hint(owner, name, implemented)
    return default
