"""Static scopes: which names are local to which function, and where each name is found.

Python's rule, computed once per function before compiling it: a name bound
anywhere in a function body (assignment, augmented assignment, ``for`` and
``with`` targets, ``except ... as`` names, ``def``/``class`` names, imports, parameters) is local to
that function for the whole body (``del x`` too); other names are looked up in the enclosing
function scopes (closures, read only -- ``nonlocal``/``global`` are outside the
language), then in the module namespace, then in the builtins.  Comprehensions
have their own scope holding their targets; their first iterable belongs to
the enclosing scope.  A class body has no scope of its own for the methods: they see the class's
enclosing scope (as in Python); class attributes are evaluated in the enclosing scope too.

Frames are Python lists: slot 0 is the frame of the enclosing function scope
at definition time (``None`` at module level), slots 1.. are the locals, the
parameters first in declaration order.  A free variable at depth ``d`` is
``fr[0][0]...[i]`` (``d`` links).
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Union

__all__ = ["Scope", "GLOBAL", "function_locals", "comprehension_locals", "param_names"]

GLOBAL = ("global",)


class Scope:
    """One scope: the module (``is_module``) or a function/lambda/comprehension with frame slots."""

    __slots__ = ("parent", "slots", "is_module", "name")

    def __init__(self, parent: Optional["Scope"], names: list[str], is_module: bool = False, name: str = "") -> None:
        self.parent = parent
        self.is_module = is_module
        self.name = name
        self.slots: dict[str, int] = {}
        for n in names:
            if n not in self.slots:
                self.slots[n] = len(self.slots) + 1

    @property
    def size(self) -> int:
        """Frame length: the outer link plus one slot per local."""
        return len(self.slots) + 1

    def resolve(self, name: str) -> tuple[Any, ...]:
        """``("global",)``, ``("local", i)`` or ``("outer", depth, i)``."""
        if self.is_module:
            return GLOBAL
        idx = self.slots.get(name)
        if idx is not None:
            return ("local", idx)
        depth = 0
        s = self.parent
        while s is not None and not s.is_module:
            depth += 1
            idx = s.slots.get(name)
            if idx is not None:
                return ("outer", depth, idx)
            s = s.parent
        return GLOBAL


def _targets(t: ast.AST, out: list[str]) -> None:
    stack = [t]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, (ast.Tuple, ast.List)):
            stack.extend(reversed(n.elts))
        elif isinstance(n, ast.Starred):
            stack.append(n.value)


def param_names(args: ast.arguments) -> list[str]:
    """Parameter names in frame order: positional-only, positional, *args, keyword-only, **kwargs."""
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.arg)
    names.extend(a.arg for a in args.kwonlyargs)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


def _bound_in(body: list[ast.stmt]) -> list[str]:
    """Names bound by the statements of a body, not looking into nested scopes."""
    out: list[str] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
            continue  # its body is another scope; decorators/defaults bind nothing
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.append(node.id)  # `del x` binds x in the function, as assignment does
            continue
        if isinstance(node, ast.alias):
            out.append(node.asname or node.name.split(".")[0])
            continue
        if isinstance(node, ast.ExceptHandler) and node.name:
            out.append(node.name)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def function_locals(node: Union[ast.FunctionDef, ast.Lambda]) -> list[str]:
    """Locals of a def or lambda: parameters first, then the names its body binds."""
    names = param_names(node.args)
    if isinstance(node, ast.FunctionDef):
        names += _bound_in(node.body)
    return names


def comprehension_locals(node: Union[ast.ListComp, ast.DictComp, ast.GeneratorExp]) -> list[str]:
    """Locals of a comprehension: the names bound by its ``for`` targets."""
    out: list[str] = []
    for gen in node.generators:
        _targets(gen.target, out)
    return out
