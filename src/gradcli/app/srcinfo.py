"""Static facts about an expression file's source, shared by the explainers (why, related, lint, modes).

Everything here reads the text and its ``ast`` only (the file already passed
the language's static check when these run): the statement at a line, the
names a statement reads, which grad-mode switch (``with torch.no_grad():``,
``torch.set_grad_enabled(False)``, ``torch.inference_mode()``, a decorator)
is in force at a line, and where a name is assigned.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass
from typing import Iterator, Optional

__all__ = ["SourceInfo", "GradSwitch", "dotted", "grad_switch_of"]


def dotted(node: ast.AST) -> str:
    """``torch.autograd.grad`` for the attribute chain, '' when it is not a plain dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


@dataclass(frozen=True)
class GradSwitch:
    """A grad-mode switch in the source.

    kind: "no_grad", "set_grad_enabled" (False), "inference_mode", "enable_grad" (grad back on),
    or "unknown" (set_grad_enabled(expr) whose value is not a constant); line/col: where it is;
    how: "with", "decorator" or "call".
    """

    kind: str
    line: int
    col: int
    how: str

    @property
    def off(self) -> bool:
        return self.kind in ("no_grad", "set_grad_enabled", "inference_mode")

    def spelling(self) -> str:
        return {"no_grad": "torch.no_grad()", "set_grad_enabled": "torch.set_grad_enabled(False)",
                "inference_mode": "torch.inference_mode()", "enable_grad": "torch.enable_grad()",
                }.get(self.kind, "torch.set_grad_enabled(...)")


def _const_bool(args: list, keywords: list, kw: str) -> Optional[bool]:
    node = args[0] if args else next((k.value for k in keywords if k.arg == kw), None)
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    return None


def grad_switch_of(expr: ast.AST, how: str) -> Optional[GradSwitch]:
    """The GradSwitch an expression (a with-item, a decorator, a call statement) is, or None."""
    call = expr if isinstance(expr, ast.Call) else None
    func = call.func if call is not None else expr
    name = dotted(func)
    last = name.rsplit(".", 1)[-1]
    line, col = getattr(expr, "lineno", 0), getattr(expr, "col_offset", 0)
    args = call.args if call is not None else []
    kws = call.keywords if call is not None else []
    if last == "no_grad":
        return GradSwitch("no_grad", line, col, how)
    if last == "enable_grad":
        return GradSwitch("enable_grad", line, col, how)
    if last == "inference_mode":
        flag = _const_bool(args, kws, "mode")
        if call is not None and (args or kws) and flag is None:
            return GradSwitch("unknown", line, col, how)
        return GradSwitch("inference_mode" if flag in (None, True) else "enable_grad", line, col, how)
    if last == "set_grad_enabled" and call is not None:
        flag = _const_bool(args, kws, "mode")
        if flag is None:
            return GradSwitch("unknown", line, col, how)
        return GradSwitch("enable_grad" if flag else "set_grad_enabled", line, col, how)
    return None


class SourceInfo:
    """The parsed source of one file, with the queries the explainers need."""

    def __init__(self, text: str, tree: Optional[ast.Module] = None) -> None:
        """``tree``: the program that ran, when it is not ``text`` parsed (``gradcli modes`` runs the file with
        its target's statements rewritten in the tree, keeping the file's lines)."""
        self.text = text or ""
        self.lines = self.text.splitlines()
        if tree is not None:
            self.tree = tree
            return
        try:
            with warnings.catch_warnings():  # e.g. "invalid decimal literal": never to the real stderr
                warnings.simplefilter("ignore")
                self.tree: Optional[ast.Module] = ast.parse(self.text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):  # (a file too deep: refused by lang)
            self.tree = None

    # --- lines and statements ---------------------------------------------------------------
    def line_text(self, line: Optional[int]) -> Optional[str]:
        if line is None or not 1 <= line <= len(self.lines):
            return None
        return self.lines[line - 1]

    def snippet(self, line: Optional[int], col: Optional[int] = None) -> str:
        """The source line without its comment and surrounding blanks ('' when unknown); of a line holding
        several ``;``-separated statements, the one at ``col`` when it is given."""
        text = self.line_text(line)
        if text is None:
            return ""
        st = self._simple_at(line, col) if col is not None else None
        if st is not None and st.lineno == st.end_lineno == line:
            b = text.encode("utf-8")
            return b[st.col_offset:st.end_col_offset].decode("utf-8", "replace").strip()
        return _strip_comment(text).strip()

    def _simple_at(self, line: int, col: int) -> Optional[ast.stmt]:
        """The simple statement of ``line`` that covers ``col``, when the line holds more than one."""
        on_line = [st for st in self.statements() if not hasattr(st, "body") and st.lineno == line]
        if len(on_line) < 2:
            return None
        for st in on_line:
            if st.col_offset <= col and (st.end_lineno != line or col < (st.end_col_offset or 0)):
                return st
        return None

    def statements(self) -> Iterator[ast.stmt]:
        if self.tree is None:
            return iter(())
        return (n for n in ast.walk(self.tree) if isinstance(n, ast.stmt))

    def statement_at(self, line: Optional[int], col: Optional[int] = None) -> Optional[ast.stmt]:
        """The innermost statement that covers ``line`` (a simple statement when there is one); of a line
        with several ``;``-separated statements, the one at ``col`` when it is given."""
        if line is None or self.tree is None:
            return None
        if col is not None:
            st = self._simple_at(line, col)
            if st is not None:
                return st
        best = None
        for st in self.statements():
            lo, hi = st.lineno, getattr(st, "end_lineno", st.lineno) or st.lineno
            if lo <= line <= hi:
                if best is None or (lo >= best.lineno and hi <= (best.end_lineno or best.lineno)):
                    best = st
        return best

    def enclosing_def(self, line: int) -> Optional[ast.FunctionDef]:
        found = None
        if self.tree is None:
            return None
        for st in self.statements():
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and \
                    st.lineno <= line <= (st.end_lineno or st.lineno):
                if found is None or st.lineno >= found.lineno:
                    found = st
        return found

    @staticmethod
    def names_read(stmt: Optional[ast.AST]) -> list[str]:
        """Names a statement loads, in source order, without repeats (for compound statements: the header)."""
        if stmt is None:
            return []
        roots: list[ast.AST]
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            roots = [stmt.iter]
        elif isinstance(stmt, (ast.If, ast.While)):
            roots = [stmt.test]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            roots = [it.context_expr for it in stmt.items]
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            roots = []
        else:
            roots = [stmt]
        seen: list[str] = []
        for root in roots:
            nodes = sorted((n for n in ast.walk(root) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
                           key=lambda n: (n.lineno, n.col_offset))
            for n in nodes:
                if n.id not in seen:
                    seen.append(n.id)
        return seen

    @staticmethod
    def names_bound(stmt: Optional[ast.AST]) -> list[str]:
        out: list[str] = []
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                _target_names(t, out)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            _target_names(stmt.target, out)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            _target_names(stmt.target, out)
        return out

    # --- grad mode ------------------------------------------------------------------------------
    def grad_switch_at(self, line: Optional[int]) -> Optional[GradSwitch]:
        """The grad-mode switch in force at ``line``, statically, or None (grad on, or not decidable).

        The innermost enclosing ``with`` block or decorated function decides; failing those, the last
        ``torch.set_grad_enabled(b)`` call statement before the line in the same block of statements.
        Inside an undecorated ``def``, the state is the caller's: None.
        """
        if line is None or self.tree is None:
            return None
        r = _switch_in(self.tree.body, line, None)
        return None if r is _UNDECIDED else r

    # --- assignments ------------------------------------------------------------------------------
    def assignments_of(self, name: str) -> list[ast.stmt]:
        """Statements outside any def that bind ``name`` (assignments, augmented ones, for targets)."""
        out: list[ast.stmt] = []
        if self.tree is None:
            return out
        stack: list[ast.AST] = list(reversed(self.tree.body))
        while stack:
            st = stack.pop()
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if name in self.names_bound(st):
                out.append(st)
            for field in ("orelse", "finalbody", "body"):
                sub = getattr(st, field, None)
                if isinstance(sub, list):
                    stack.extend(reversed(sub))
        out.sort(key=lambda s: s.lineno)
        return out


_UNDECIDED = GradSwitch("undecided", 0, 0, "")


def _after(current: Optional[GradSwitch], sw: Optional[GradSwitch]) -> Optional[GradSwitch]:
    if sw is None:
        return current
    return None if sw.kind == "enable_grad" else sw


def _switch_in(body: list, line: int, current: Optional[GradSwitch]):
    """The switch in force at ``line`` within a block entered with ``current`` (_UNDECIDED in a plain def)."""
    for st in body:
        lo, hi = st.lineno, st.end_lineno or st.lineno
        if hi < line:
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                    dotted(st.value.func).endswith("set_grad_enabled"):
                current = _after(current, grad_switch_of(st.value, "call"))
            continue
        if lo > line:
            break
        if isinstance(st, (ast.With, ast.AsyncWith)):
            if line == st.lineno:
                return current
            inner = current
            for it in st.items:
                inner = _after(inner, grad_switch_of(it.context_expr, "with"))
            return _switch_in(st.body, line, inner)
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            switches = [grad_switch_of(d, "decorator") for d in st.decorator_list]
            switches = [sw for sw in switches if sw is not None]
            if not switches or line < st.body[0].lineno:
                return _UNDECIDED
            inner = None
            for sw in switches:
                inner = _after(inner, sw)
            return _switch_in(st.body, line, inner)
        if isinstance(st, ast.ClassDef):
            return _UNDECIDED
        for field in ("body", "orelse", "finalbody", "handlers"):
            sub = getattr(st, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt) and \
                    sub[0].lineno <= line <= (sub[-1].end_lineno or sub[-1].lineno):
                return _switch_in(sub, line, current)
        return current
    return current


def _target_names(t: ast.AST, out: list) -> None:
    if isinstance(t, ast.Name):
        out.append(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _target_names(e, out)
    elif isinstance(t, ast.Starred):
        _target_names(t.value, out)


def _strip_comment(text: str) -> str:
    """The line without a trailing ``# comment`` (quotes respected)."""
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            i += len(quote)
            continue
        elif c == "#":
            return text[:i]
        i += 1
    return text
