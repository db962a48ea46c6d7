"""Command-line value checks: each bad value is a UsageProblem (exit status 2)."""

import pytest

from gradcli.app.options import (check_expect_error, parse_hide, parse_name_list, parse_names, parse_sets,
                                 parse_show)
from gradcli.app.problems import ToolMissing, UsageProblem


def test_parse_sets_keeps_order_and_value_text():
    assert parse_sets(["x=1", "w=[[1, 2], [3, 4]]", "e=a==b", " y =2"]) == [
        ("x", "1"), ("w", "[[1, 2], [3, 4]]"), ("e", "a==b"), ("y", "2")]
    assert parse_sets(None) == []


@pytest.mark.parametrize("bad", ["x", "=1", "x=", "x= ", "1a=2", "for=1", "a.b=1"])
def test_parse_sets_refuses(bad):
    with pytest.raises(UsageProblem):
        parse_sets([bad])


def test_names_and_lists():
    assert parse_names("--requires-grad", ["a", "b,c", "a"]) == ["a", "b", "c"]
    assert parse_name_list("--inputs", "a, b") == ["a", "b"]
    assert parse_name_list("--inputs", None) is None
    for bad in ("a,,b", ",", ""):
        with pytest.raises(UsageProblem):
            parse_name_list("--inputs", bad)
    with pytest.raises(UsageProblem):
        parse_names("--retain-grad", ["x-1"])


def test_show_and_hide():
    assert parse_show(None) == {"data", "grad", "flags", "why"}  # why: the "why no gradient" table (issue 19)
    assert parse_show("DATA, grad") == {"data", "grad"}
    assert parse_hide(None) == frozenset() and parse_hide("views") == {"views"}
    with pytest.raises(UsageProblem) as info:
        parse_show("values")
    assert "Choose from: data, grad, flags, why" in info.value.hint
    with pytest.raises(UsageProblem):
        parse_hide("")


def test_expect_error_kinds_are_spec_kinds():
    assert check_expect_error("second_backward") == "second_backward"
    assert check_expect_error(None) is None
    with pytest.raises(UsageProblem) as info:
        check_expect_error("inplace")
    assert "inplace_modified" in info.value.hint  # the hint lists the known kinds


def test_tool_missing_is_a_usage_problem():
    err = ToolMissing("dot", "to draw .svg files", "install graphviz")
    assert isinstance(err, UsageProblem) and "'dot'" in err.message and err.hint == "install graphviz"
