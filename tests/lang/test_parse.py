"""parse.py: bad input is a positioned syntax/limit GradcliError, never a traceback."""

from __future__ import annotations

import ast
import sys

import pytest

from gradcli.errors import GradcliError
from gradcli.lang.limits import Limits
from gradcli.lang.parse import parse_expression, parse_source, tree_depth


def err(source, limits=Limits()):
    with pytest.raises(GradcliError) as ei:
        parse_source(source, "f.py", limits)
    return ei.value


def test_empty_file_is_valid():
    p = parse_source("", "f.py")
    assert p.tree.body == []
    assert parse_source(b"", "f.py").tree.body == []
    assert parse_source("\n\n# only a comment\n", "f.py").tree.body == []


def test_bytes_and_str():
    p = parse_source(b"x = 1\ny = 2\n", "f.py")
    assert [type(s).__name__ for s in p.tree.body] == ["Assign", "Assign"]
    assert p.source_line(2) == "y = 2"
    assert p.source_line(3) is None and p.source_line(None) is None


def test_utf8_bom_accepted():
    p = parse_source(b"\xef\xbb\xbfx = 1\n", "f.py")
    assert isinstance(p.tree.body[0], ast.Assign)
    assert p.text == "x = 1\n"
    p = parse_source("\ufeffx = 1\n", "f.py")
    assert p.text == "x = 1\n"


def test_utf8_text_accepted():
    p = parse_source("s = 'grüße ∂x'\n".encode("utf-8"), "f.py")
    assert p.tree.body[0].value.value == "grüße ∂x"


def test_non_utf8_bytes():
    e = err(b"x = 1\ny = '\xff'\n")
    assert e.kind == "syntax"
    assert (e.line, e.col) == (2, 5)
    assert "UTF-8" in e.message


def test_nul_byte():
    e = err(b"x = 1\nab\x00c = 2\n")
    assert e.kind == "syntax"
    assert (e.line, e.col) == (2, 2)
    e = err("x\x00")
    assert (e.kind, e.line, e.col) == ("syntax", 1, 1)


def test_huge_file_checked_before_parsing():
    src = "x = 1\n" * 200_000  # 1.2 MB
    e = err(src)
    assert e.kind == "limit" and "bytes" in e.message
    e = err(src.encode())
    assert e.kind == "limit"
    # overridable
    assert parse_source("x = 1\n" * 10, "f.py", Limits(max_source_bytes=100)).tree.body
    assert err("x = 1\n" * 20, Limits(max_source_bytes=100)).kind == "limit"


def test_syntax_error_position():
    e = err("x = torch.ones(2)\ny = = x * 2\nprint(y)\n")
    assert (e.kind, e.line, e.col) == ("syntax", 3 - 1, 4)
    assert e.message == "invalid syntax"


def test_unterminated_string():
    e = err("x = 1\ns = 'abc\n")
    assert e.kind == "syntax" and e.line == 2
    assert "unterminated string" in e.message
    e = err('x = """abc\n\n')
    assert e.kind == "syntax" and e.line == 1


def test_tab_space_mix():
    e = err("if True:\n        x = 1\n\ty = 2\n")
    assert e.kind == "syntax" and e.line == 3
    assert "tab" in e.message or "indent" in e.message


def test_bad_indentation():
    e = err("x = 1\n  y = 2\n")
    assert (e.kind, e.line) == ("syntax", 2)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "1" + ")" * 10_000,
        "[" * 10_000 + "]" * 10_000,
        "x = " + "{" * 500 + "}" * 500,
    ],
)
def test_deep_brackets_are_a_limit_before_parsing(text):
    e = err(text)
    assert e.kind == "limit"
    assert e.line == 1 and e.col is not None
    assert "nested" in e.message


def test_brackets_in_strings_and_comments_do_not_count():
    text = "s = '" + "(" * 500 + "'  # " + "[" * 500 + "\n"
    assert parse_source(text, "f.py").tree.body


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "-" * 10_000 + "1",
        "x = " + "not " * 10_000 + "1",
        "x = " + "+".join(["1"] * 100_000),
        "x = " + "**".join(["1"] * 10_000),
        "x = " + " if 1 else ".join(["1"] * 10_000),
        "x = " + "lambda: " * 10_000 + "1",
        "x = a" + ".b" * 100_000,
        "x = f" + "()" * 100_000,
        "x = a" + "[0]" * 100_000,
        "x = " + "~" * 10_000 + "1",
    ],
)
def test_deep_expressions_are_a_limit_error(text):
    e = err(text)
    assert e.kind == "limit"
    assert e.line == 1


def test_deep_statement_nesting():
    text = "".join("    " * i + "if x:\n" for i in range(150)) + "    " * 150 + "pass\n"
    e = err(text)
    assert e.kind in ("limit", "syntax")  # CPython allows 100 indentation levels


def test_depth_within_limit_is_fine():
    text = "x = " + "(" * 50 + "1" + ")" * 50 + "\n" + "y = " + "-" * 100 + "1\n"
    p = parse_source(text, "f.py")
    assert p.depth < 200


def test_tree_depth_is_iterative_and_bounded():
    tree = ast.parse("x = " + "+".join(["1"] * 300))
    with pytest.raises(GradcliError) as ei:
        tree_depth(tree, 100)
    assert ei.value.kind == "limit"
    assert tree_depth(ast.parse("x = 1"), 100) == 4  # Module, Assign, Constant/Name, ctx


def test_parse_keeps_recursion_limit():
    before = sys.getrecursionlimit()
    err("x = " + "-" * 10_000 + "1")
    assert sys.getrecursionlimit() == before


def test_parse_expression():
    t = parse_expression("torch.ones(2) * 3")
    assert isinstance(t, ast.Expression)
    with pytest.raises(GradcliError) as ei:
        parse_expression("1 +")
    assert ei.value.kind == "syntax"
    with pytest.raises(GradcliError):
        parse_expression("x = 1")


def test_syntax_warnings_do_not_reach_stderr(capfd):
    parse_source("x = 1if 1 else 2\n", "f.py")
    assert capfd.readouterr().err == ""


def test_int_literal_too_long():
    e = err("x = " + "1" * 5000)
    assert e.kind == "syntax"
