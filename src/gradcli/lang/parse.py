"""Source bytes/str -> Python ``ast``, with every bad input a clean ``GradcliError``.

The parser is Python's own :func:`ast.parse`; this module only makes it safe
and its errors positioned:

1. size: the source must fit in ``Limits.max_source_bytes`` (checked before
   decoding or parsing anything);
2. encoding: bytes are decoded as UTF-8 (a UTF-8 BOM is accepted and dropped);
   an undecodable byte is a ``syntax`` error at its line/column;
3. a NUL character is a ``syntax`` error at its position (``ast.parse`` would
   raise a ValueError without one);
4. nesting: a linear regex scan (strings and comments skipped) bounds the
   bracket depth by ``Limits.max_nesting`` *before* ``ast.parse`` sees it.
   ``ast.parse`` is also run with the recursion limit no higher than CPython's
   default, so the C-level AST construction keeps its own guard, and its
   ``MemoryError`` ("too complex") / ``RecursionError`` become ``limit`` errors;
5. depth: the tree's depth is measured iteratively (no recursion) and bounded
   by ``Limits.max_ast_depth``, so the later passes -- validation is iterative,
   the closure compiler recurses once per tree level -- never meet a tree deeper
   than that;
6. ``SyntaxError`` (and its ``IndentationError``/``TabError`` subclasses) becomes a
   ``syntax`` error with Python's message, 1-based line and 0-based column.

An empty file is valid and yields an empty module.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from dataclasses import dataclass
from typing import Optional, Union

from ..errors import GradcliError, error_class
from .limits import DEFAULT_LIMITS, Limits, limit_error

__all__ = ["ParsedSource", "parse_source", "parse_expression", "decode_source", "tree_depth"]

_BOM = "\ufeff"
_SAFE_PARSE_RECURSION = 1000  # CPython's default; ast construction checks against it

# strings (with prefixes, triple-quoted first), comments, brackets
_SCAN = re.compile(
    r"""(?P<s>(?:[rRbBuUfF]{1,2})?(?:'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)"""
    r'''|"""(?:[^"\\]|\\.|"(?!""))*(?:"""|\Z)'''
    r"""|'(?:[^'\\\n]|\\.)*(?:'|$)"""
    r'''|"(?:[^"\\\n]|\\.)*(?:"|$)))'''
    r"""|(?P<c>\#[^\n]*)|(?P<o>[(\[{])|(?P<cl>[)\]}])""",
    re.S | re.M,
)


@dataclass
class ParsedSource:
    """A parsed file: its tree, its text (BOM removed) and the tree's depth."""

    tree: ast.Module
    text: str
    filename: str
    depth: int

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def source_line(self, line: Optional[int]) -> Optional[str]:
        """The text of 1-based ``line`` (None when out of range)."""
        if line is None:
            return None
        lines = self.lines
        return lines[line - 1] if 1 <= line <= len(lines) else None


def _syntax(message: str, line: Optional[int], col: Optional[int]) -> GradcliError:
    return error_class("syntax")(message, line=line, col=col)


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    start = text.rfind("\n", 0, index) + 1
    return line, index - start


def decode_source(source: Union[str, bytes], limits: Limits = DEFAULT_LIMITS) -> str:
    """Bytes or str -> text: size limit, UTF-8 (BOM dropped), no NUL. Raises syntax/limit errors."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > limits.max_source_bytes:
            # the reader stops one byte past the limit, so len(data) is not the file's size
            raise limit_error(
                f"the file is larger than the limit of {limits.max_source_bytes:,} bytes", "max_source_bytes"
            )
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1)
            raise _syntax(
                f"the file is not valid UTF-8: byte 0x{data[e.start]:02x} cannot be decoded ({e.reason})", line, col
            ) from None
    elif isinstance(source, str):
        text = source
        if len(text) > limits.max_source_bytes or len(text.encode("utf-8", "surrogatepass")) > limits.max_source_bytes:
            raise limit_error(
                f"the file is larger than the limit of {limits.max_source_bytes:,} bytes", "max_source_bytes"
            )
        if text.startswith(_BOM):
            text = text[1:]
    else:
        raise TypeError(f"source must be str or bytes, not {type(source).__name__}")
    nul = text.find("\x00")
    if nul >= 0:
        line, col = _line_col(text, nul)
        raise _syntax("the file contains a NUL byte", line, col)
    return text


def _scan_nesting(text: str, limits: Limits) -> None:
    """Linear scan of bracket depth (strings/comments skipped); raise ``limit`` past max_nesting."""
    depth = 0
    maximum = limits.max_nesting
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "o":
            depth += 1
            if depth > maximum:
                line, col = _line_col(text, m.start())
                raise limit_error(
                    f"brackets are nested more than {maximum} levels deep", "max_nesting", line=line, col=col
                )
        elif kind == "cl":
            depth -= 1


def tree_depth(tree: ast.AST, limit: int) -> int:
    """Depth of ``tree`` (iterative); raises ``limit`` at the first node deeper than ``limit``."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 1)]
    pos = (None, None)
    while stack:
        node, d = stack.pop()
        if hasattr(node, "lineno"):
            pos = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
        if d > deepest:
            deepest = d
            if d > limit:
                line = getattr(node, "lineno", pos[0])
                col = getattr(node, "col_offset", pos[1])
                raise limit_error(
                    f"the program nests more than {limit} levels deep (statements and expressions)",
                    "max_ast_depth",
                    line=line,
                    col=col,
                )
        for child in ast.iter_child_nodes(node):
            stack.append((child, d + 1))
    return deepest


def _ast_parse(text: str, filename: str, mode: str) -> ast.AST:
    old = sys.getrecursionlimit()
    lowered = old > _SAFE_PARSE_RECURSION
    if lowered:
        try:
            sys.setrecursionlimit(_SAFE_PARSE_RECURSION)
        except RecursionError:  # already deeper than that: keep the current limit
            lowered = False
    try:
        with warnings.catch_warnings():  # e.g. "invalid decimal literal": never to the real stderr
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=filename, mode=mode)
    except SyntaxError as e:
        col = (e.offset - 1) if e.offset else 0
        raise _syntax(e.msg or "invalid syntax", e.lineno, max(col, 0)) from None
    except (MemoryError, RecursionError):
        raise limit_error(
            "the program is nested too deeply for the parser", "max_ast_depth", line=1, col=0
        ) from None
    except ValueError as e:  # e.g. NUL bytes (already refused above) -- never a traceback
        raise _syntax(str(e), 1, 0) from None
    finally:
        if lowered:
            sys.setrecursionlimit(old)


def parse_source(source: Union[str, bytes], filename: str = "<file>", limits: Limits = DEFAULT_LIMITS) -> ParsedSource:
    """Parse a whole file. Raises ``GradcliError`` of kind ``syntax`` or ``limit``, never a traceback."""
    text = decode_source(source, limits)
    _scan_nesting(text, limits)
    tree = _ast_parse(text, filename, "exec")
    assert isinstance(tree, ast.Module)
    depth = tree_depth(tree, limits.max_ast_depth)
    return ParsedSource(tree, text, filename, depth)


def parse_expression(text: str, limits: Limits = DEFAULT_LIMITS, filename: str = "<command line>") -> ast.Expression:
    """Parse one expression (``--set``/``--gradient`` values) with the same guards."""
    text = decode_source(text, limits)
    _scan_nesting(text, limits)
    tree = _ast_parse(text.strip(), filename, "eval")
    assert isinstance(tree, ast.Expression)
    tree_depth(tree, limits.max_ast_depth)
    return tree
