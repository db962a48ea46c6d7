"""Error kinds the language raises itself, and the positions it reports (innermost wins).

Expected kinds/messages follow Python's own exceptions (NameError, TypeError ...)
mapped by SPEC §4; lines/cols are CPython's (1-based line, 0-based col_offset
of the failing node).
"""

from __future__ import annotations

import pytest

CASES = [
    # (source, kind, line, col, message fragment)
    ("x = 1\nprint(y)\n", "name", 2, 6, "name 'y' is not defined"),
    ("def f():\n    print(v)\n    v = 1\nf()\n", "name", 2, 10,
     "cannot access local variable 'v' where it is not associated with a value"),
    ("def f():\n    def g():\n        return w\n    r = g()\n    w = 1\nf()\n", "name", 3, 15,
     "cannot access free variable 'w'"),
    ("x = 1 + 'a'\n", "type", 1, 4, "unsupported operand type(s) for +: 'int' and 'str'"),
    ("def f(a):\n    return a\ny = f(1, 2)\n", "type", 3, 4, "f() takes 1 positional argument but 2 were given"),
    ("def f(a, b):\n    return a\ny = f(1)\n", "type", 3, 4, "f() missing 1 required positional argument: 'b'"),
    ("def f(a, b, c):\n    return a\ny = f()\n", "type", 3, 4,
     "f() missing 3 required positional arguments: 'a', 'b', and 'c'"),
    ("def f(a):\n    return a\ny = f(1, z=2)\n", "type", 3, 4, "f() got an unexpected keyword argument 'z'"),
    ("def f(a):\n    return a\ny = f(1, a=2)\n", "type", 3, 4, "f() got multiple values for argument 'a'"),
    ("def f(*, k):\n    return k\ny = f()\n", "type", 3, 4, "f() missing 1 required keyword-only argument: 'k'"),
    ("def f(a, /):\n    return a\ny = f(a=1)\n", "type", 3, 4, "positional-only arguments passed as keyword"),
    ("g = lambda: 1\ny = g(3)\n", "type", 2, 4, "<lambda>() takes 0 positional arguments but 1 was given"),
    ("x = None\nx()\n", "type", 2, 0, "'NoneType' object is not callable"),
    ("x = 5\ny = x[0]\n", "type", 2, 4, "'int' object is not subscriptable"),
    ("for v in 3:\n    pass\n", "type", 1, 0, "'int' object is not iterable"),
    ("l = [1, 2]\ny = l[2]\n", "index", 2, 4, "list index out of range"),
    ("t = ()\nt[0]\n", "index", 2, 0, "tuple index out of range"),
    ("assert 1 > 2\n", "assertion", 1, 0, "assertion failed: 1 > 2"),
    ("x = 0\nassert x, f'x is {x}'\n", "assertion", 2, 0, "x is 0"),
    ("y = 1 / 0\n", "runtime", 1, 4, "ZeroDivisionError"),
    ("d = {'a': 1}\ny = d['b']\n", "runtime", 2, 4, "KeyError: 'b'"),
    ("a, b = [1, 2, 3]\n", "runtime", 1, 0, "too many values to unpack (expected 2)"),
    ("a, b, *c = [1]\n", "runtime", 1, 0, "not enough values to unpack (expected at least 2, got 1)"),
    ("y = int('x')\n", "runtime", 1, 4, "invalid literal for int()"),
    ("x = 5\ny = x.foo\n", "runtime", 2, 4, "'int' object has no attribute 'foo'"),
    ("f = lambda: 0\nf.attr = 1\n", "runtime", 2, 0, "'function' object has no attribute 'attr'"),
    ("s = 'a'\ns.upper = 1\n", "runtime", 2, 0, "read-only"),
    ("y = 10.0 ** 400\n", "runtime", 1, 4, "OverflowError"),
    ("y = '%999999999d' % 3\n", "limit", 1, 4, "width or precision"),
    ("y = 'abc'.encode\n", "unsupported", 1, 4, "'str.encode' is outside the gradcli language"),
    ("@print\ndef f():\n    pass\n", "unsupported", 1, 1, "decorator"),
    ("def deco(fn):\n    return fn + 1\n@deco\ndef f():\n    pass\n", "type", 2, 11, "unsupported operand"),
    ("with 3:\n    pass\n", "type", 1, 0, "does not support the context manager protocol"),
    ("print(1, file=None, sep=3)\n", "type", 1, 0, "sep must be None or a string"),
]


@pytest.mark.parametrize("src, kind, line, col, fragment", CASES)
def test_error_kind_and_position(run, src, kind, line, col, fragment):
    r = run(src)
    assert not r.ok
    e = r.error
    assert (e.kind, e.line, e.col) == (kind, line, col), e.message
    assert fragment in e.message
    assert e.frames[-1] == (line, col)


def test_innermost_position_wins_and_frames_chain(run):
    src = """\
    def inner(t):
        return t[5]
    def outer(t):
        return inner(t) + 1
    x = [1, 2]
    y = outer(x)
    """
    r = run(src)
    e = r.error
    assert (e.kind, e.line, e.col) == ("index", 2, 11)
    assert e.frames == [(6, 4), (4, 11), (2, 11)]
    assert e.source_line == "    return t[5]"


def test_error_inside_lambda_called_by_builtin(run):
    r = run("l = [2, 1]\nl.sort(key=lambda v: v.nope)\n")
    e = r.error
    assert (e.kind, e.line, e.col) == ("runtime", 2, 21)
    assert e.frames == [(2, 0), (2, 21)]


def test_error_ends_the_run_output_before_it_stays(run):
    r = run("print('a')\nfor i in range(3):\n    print(i)\n    z = [][i]\nprint('never')\n")
    assert r.stdout == "a\n0\n"
    assert (r.error.kind, r.error.line) == ("index", 4)


def test_static_errors_run_nothing(run):
    r = run("print('ran')\nimport os\n")
    assert r.stdout == "" and (r.error.kind, r.error.line, r.error.col) == ("unsupported", 2, 0)
    assert r.error.problems and r.error.problems[0]["line"] == 2
    r = run("print('ran')\nx = = 1\n")
    assert r.stdout == "" and (r.error.kind, r.error.line) == ("syntax", 2)
    r = run("print('ran')\ndef f():\n    return 1\nreturn 2\n")
    assert r.stdout == "" and (r.error.kind, r.error.line) == ("syntax", 4)


def test_unbound_after_conditional_assignment(run):
    r = run("def f(flag):\n    if flag:\n        v = 1\n    return v\ny = f(True)\nz = f(False)\n")
    assert (r.error.kind, r.error.line) == ("name", 4)
    assert r.error.frames[0] == (6, 4)


# --- limits ----------------------------------------------------------------------------------
LIMITS = [
    ("while True:\n    pass\n", dict(max_steps=10_000), 1, "--max-steps"),
    ("i = 0\nwhile i < 10**9:\n    i += 1\n", dict(max_steps=5_000), 2, "--max-steps"),
    ("for i in range(10**9):\n    pass\n", dict(max_steps=5_000), 1, "--max-steps"),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", {}, 2, "loop"),
    ("x = [i for i in range(10**9)]\n", dict(max_steps=5_000), 1, "--max-steps"),
    ("x = sum(range(10**12))\n", {}, 1, "--max-steps"),
    ("x = 2 ** 10 ** 10\n", {}, 1, ""),
    ("x = 10 ** 10 ** 10\n", {}, 1, ""),
    ("x = 1 << 10 ** 10\n", {}, 1, ""),
    ("x = [0] * 10 ** 10\n", {}, 1, "--max-elements"),
    ("x = 'ab' * 10 ** 9\n", {}, 1, "--max-elements"),
    ("x = list(range(10 ** 10))\n", {}, 1, "--max-elements"),
    ("x = [*range(10 ** 10)]\n", {}, 1, "--max-elements"),
    ("s = 'x' * 1000\nfor i in range(40):\n    s = s + s\n", {}, 3, "--max-"),
    ("l = [0]\nfor i in range(40):\n    l += l\n", {}, 3, "--max-"),
    ("s = 'x' * 10**4\nfor i in range(10):\n    s = s.replace('x', 'xxxxx')\n", {}, 3, "--max-"),
    ("x = f'{1:1000000000}'\n", {}, 1, "width"),
    ("for i in range(10 ** 6):\n    print('x' * 1000)\n", dict(max_output=100_000), 2, "Print less"),
    ("x = 1.5 in range(10 ** 15)\n", {}, 1, "--max-steps"),
    ("x = [[0] * 10**7 for i in range(1000)]\n", {}, 1, "--max-steps"),
]


@pytest.mark.parametrize("src, options, line, hint", LIMITS)
def test_limits(run, src, options, line, hint):
    r = run(src, **options)
    assert not r.ok
    assert r.error.kind == "limit", r.error
    assert r.error.line == line
    assert hint in r.error.hint + r.error.message


def test_timeout(run):
    import time

    t0 = time.monotonic()
    r = run("x = 0\nwhile True:\n    x = x + 1\n", timeout=0.3, max_steps=10**12)
    assert time.monotonic() - t0 < 5
    assert r.error.kind == "limit" and "time limit" in r.error.message and "--timeout" in r.error.hint


def test_call_depth_limit_is_configurable(run):
    src = "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(150))\n"
    assert run(src).stdout == "150\n"
    r = run(src, max_call_depth=100)
    assert r.error.kind == "limit" and r.error.line == 2
    assert run(src.replace("150", "900"), max_call_depth=1000).stdout == "900\n"


def test_steps_are_exact(run):
    # 3 loop iterations + 3 calls = 6 steps
    src = "def f():\n    return 1\nfor i in range(3):\n    f()\n"
    assert run(src, max_steps=6).ok
    assert run(src, max_steps=5).error.kind == "limit"
