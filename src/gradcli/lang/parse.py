"""Source bytes/str -> Python ``ast``, with every bad input a clean ``GradcliError``.

The parser is Python's own :func:`ast.parse`; this module only makes it safe
and its errors positioned:

1. size: the source must fit in ``Limits.max_source_bytes`` (checked before
   decoding or parsing anything);
2. encoding: bytes are decoded as Python decodes a source file (PEP 263): UTF-8
   (a UTF-8 BOM is accepted and dropped) or the encoding a coding line declares;
   an undecodable byte, an unknown encoding or a BOM against the coding line is a
   ``syntax`` error at its line/column naming the byte offset, with a hint to save
   the file as UTF-8;
3. a NUL character is a ``syntax`` error at its position, naming its byte offset
   (``ast.parse`` would raise a ValueError without one);
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

__all__ = ["ParsedSource", "parse_source", "parse_expression", "decode_source", "tree_depth", "encoding_error",
           "source_text"]

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


def _syntax(message: str, line: Optional[int], col: Optional[int], hint: Optional[str] = None) -> GradcliError:
    return error_class("syntax")(message, hint, line=line, col=col)


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    start = text.rfind("\n", 0, index) + 1
    return line, index - start


def decode_source(source: Union[str, bytes], limits: Limits = DEFAULT_LIMITS) -> str:
    """Bytes or str -> text: size limit, encoding, no NUL.  Raises syntax/limit errors.

    Bytes are decoded as Python decodes a source file (PEP 263): UTF-8 (a UTF-8 BOM is dropped), or the
    encoding a ``# -*- coding: NAME -*-`` line in the first two lines declares.  A byte that does not decode,
    an unknown or non-text encoding, a BOM that contradicts the coding line, or a NUL byte is a ``syntax``
    error at its line and column whose message names the byte offset and the problem, and whose hint says
    how to save the file as UTF-8 (:func:`encoding_error`).
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > limits.max_source_bytes:
            # the reader stops one byte past the limit, so len(data) is not the file's size
            raise limit_error(
                f"the file is larger than the limit of {limits.max_source_bytes:,} bytes", "max_source_bytes"
            )
        encoding, declared = _source_encoding(data)
        bom = data.startswith(_UTF8_BOM)
        body = data[len(_UTF8_BOM):] if bom else data
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as e:
            raise encoding_error(data, e.start + (len(_UTF8_BOM) if bom else 0), encoding, declared, e.reason) \
                from None
        nul = data.find(b"\x00")
        if nul >= 0 and encoding.replace("_", "-").lower() in _ASCII_SUPERSETS:
            raise _nul_error(data, nul)
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
        raise _nul_error(text[:nul].encode("utf-8", "surrogatepass") + b"\x00", nul, text=text)
    return text


_UTF8_BOM = b"\xef\xbb\xbf"
#: encodings in which a NUL byte is the NUL character (where the byte offset is the character's)
_ASCII_SUPERSETS = frozenset({"utf-8", "utf8", "ascii", "us-ascii", "latin-1", "latin1", "iso-8859-1", "cp1252",
                              "iso-8859-15", "utf-8-sig"})
_SAVE_AS_UTF8 = "Save the file as UTF-8 (an editor's \"save with encoding\", or `iconv -f ENCODING -t UTF-8`)"


def _line_col_bytes(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1)


def _source_encoding(data: bytes) -> tuple[str, bool]:
    """(encoding, declared): PEP 263's coding line of the first two lines (Python's own rules, through
    ``tokenize.detect_encoding``), else UTF-8.  An unknown or non-text encoding, or a BOM that
    contradicts the coding line, is a ``syntax`` error."""
    import codecs
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        msg = str(e.msg if hasattr(e, "msg") else e)
        if msg.startswith("invalid or missing encoding declaration"):
            return "utf-8", False  # a first line that is not UTF-8: the decode below names the byte
        first = data[len(_UTF8_BOM):] if data.startswith(_UTF8_BOM) else data
        line = 1 if b"coding" in first.split(b"\n", 1)[0] else 2
        if msg.startswith("unknown encoding"):
            name = msg.split(":", 1)[1].strip() if ":" in msg else "?"
            raise _syntax(f"the file's coding line declares an unknown encoding: {name}", line, 0,
                          f"{_SAVE_AS_UTF8} and delete the coding line, or name a Python text encoding there, "
                          "e.g. `# -*- coding: latin-1 -*-`.") from None
        raise _syntax("the file starts with a UTF-8 byte order mark, but its coding line declares another "
                      "encoding", line, 0, f"{_SAVE_AS_UTF8} and delete the coding line.") from None
    declared = encoding not in ("utf-8", "utf-8-sig")
    if not declared:
        return "utf-8", False
    try:
        is_text = codecs.lookup(encoding)._is_text_encoding
    except LookupError:  # pragma: no cover - detect_encoding looked it up already
        is_text = False
    if is_text:
        try:  # as Python: the coding line itself must read the same in it (no UTF-16, UTF-32)
            is_text = "# coding\n".encode(encoding) == b"# coding\n"
        except (UnicodeError, LookupError):  # pragma: no cover - any text codec encodes ASCII
            is_text = False
    if not is_text:
        raise _syntax(f"the file's coding line declares {encoding}, which Python source cannot be written in "
                      "(not a text encoding that keeps ASCII as it is)", 1, 0,
                      f"{_SAVE_AS_UTF8} and delete the coding line.")
    return encoding, declared


def encoding_error(data: bytes, offset: int, encoding: str, declared: bool, reason: str) -> GradcliError:
    """The ``syntax`` error of a byte at ``offset`` that ``encoding`` cannot decode (its line and column)."""
    line, col = _line_col_bytes(data, offset)
    name = "UTF-8" if encoding == "utf-8" else encoding
    how = " (as its coding line declares)" if declared else ""
    message = f"the file is not valid {name}{how}: the byte 0x{data[offset]:02x} at byte offset {offset} " \
              f"cannot be decoded ({reason})"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data.count(b"\x00") * 4 >= len(data) > 0:
        message += "; it looks like UTF-16"
    if message.endswith("UTF-16"):
        hint = "Save the file as UTF-8: `iconv -f UTF-16 -t UTF-8 FILE > NEW` (Python source cannot be UTF-16)."
    else:
        hint = (f"{_SAVE_AS_UTF8}, or declare the encoding it is in on its first line, e.g. "
                "`# -*- coding: latin-1 -*-` (PEP 263).")
    return _syntax(message, line, col, hint)


def _nul_error(data: bytes, offset: int, text: Optional[str] = None) -> GradcliError:
    if text is not None:
        line, col = _line_col(text, text.find("\x00"))
    else:
        line, col = _line_col_bytes(data, offset)
    message = f"the file contains a NUL byte (0x00) at byte offset {offset}"
    if data.count(b"\x00") * 4 >= len(data):
        message += "; it looks like UTF-16 or UTF-32, or not like text"
    return _syntax(message, line, col, "Save the file as UTF-8 text: a Python source file cannot contain NUL "
                   "bytes (a UTF-16 file: `iconv -f UTF-16 -t UTF-8 FILE > NEW`).")


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


def source_text(source: Union[str, bytes]) -> str:
    """The file's text for showing it (source lines under an error): decoded as :func:`decode_source`
    does, else -- a file that does not decode -- as UTF-8 with the bad bytes replaced."""
    try:
        return decode_source(source, Limits(max_source_bytes=1 << 62))
    except GradcliError:
        if isinstance(source, str):
            return source[1:] if source.startswith(_BOM) else source
        return bytes(source).decode("utf-8", errors="replace").lstrip(_BOM)
