"""``type(obj)`` (lang/type_builtin.py): the very class object a file can name, or an ``unsupported`` error.

What PyTorch prints for ``type(...)`` is checked by the conformance case classes/type_builtin (recorded
from PyTorch 2.13); the escapes through ``type`` are attempts in test_sandbox.py.  Here: the returned
object *is* the namespace's (so the attribute gate treats it as that name), and the refusals say why.
"""

from __future__ import annotations

import pytest


def test_type_returns_the_namespace_class_itself(run):
    r = run("""
        import torch.nn as nn
        class N(nn.Module):
            pass
        m = N()
        a = type(torch.ones(1)) is torch.Tensor
        b = type(nn.Linear(1, 1)) is nn.Linear
        c = type(m) is N
        d = type(torch.float32) is torch.dtype
        e = type(torch.ones(2).shape) is torch.Size
    """)
    assert r.ok, r.error
    assert [r.namespace[k] for k in "abcde"] == [True] * 5


def test_type_of_a_class_defined_in_a_function(run):
    r = run("""
        def make():
            class P:
                pass
            return P()
        t = type(make())
        ok = isinstance(make(), t)
    """)
    assert r.ok, r.error
    assert r.namespace["ok"] is False  # each call makes a new class, as in Python


@pytest.mark.parametrize("src, what", [
    ("t = type(print)\n", "'function' object"),
    ("t = type(None)\n", "'NoneType' object"),
    ("t = type(torch)\n", "'Namespace' object"),
    ("y = torch.ones(1, requires_grad=True) * 2\nt = type(y.grad_fn)\n", "'MulBackward0' object"),
    ("t = type(type(1))\n", "'type' object"),
])
def test_unnameable_class_is_unsupported(run, src, what):
    r = run(src)
    assert not r.ok and r.error.kind == "unsupported"
    assert what in r.error.message and "classes a file can name" in r.error.message
    assert r.error.line == src.count("\n")


def test_three_argument_type_is_unsupported(run):
    r = run("T = type('T', (), {})\n")
    assert not r.ok and r.error.kind == "unsupported" and "class statement" in r.error.message


def test_wrong_argument_count_is_pythons_type_error(run):
    r = run("t = type(1, 2)\n")
    assert not r.ok and r.error.kind == "type" and "type() takes 1 or 3 arguments" in r.error.message


def test_type_of_a_caught_error_is_the_exception_class(run):
    # Python's rule: type(e) of `except RuntimeError as e` is the raised class itself
    r = run("""
        try:
            torch.ones(2) + torch.ones(3)
        except Exception as e:
            a = type(e) is RuntimeError
            b = type(e) is Exception
        try:
            int("a")
        except ValueError as e:
            c = type(e) is ValueError
    """)
    assert r.ok, r.error
    assert [r.namespace[k] for k in "abc"] == [True, False, True]


@pytest.mark.parametrize("attr", ["mro()", "__subclasses__()", "__base__", "__dict__", "__init__"])
def test_exception_class_from_type_gives_no_way_out(run, attr):
    r = run(f"""
        try:
            torch.ones(2) + torch.ones(3)
        except RuntimeError as e:
            t = type(e)
        v = t.{attr}
    """)
    assert not r.ok and r.error.kind == "unsupported" and r.error.line == 6
