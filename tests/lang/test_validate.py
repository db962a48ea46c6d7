"""validate.py: one whitelist pass, every construct outside the language named with its position."""

from __future__ import annotations

import ast
import textwrap

import pytest

from gradcli.errors import GradcliError
from gradcli.lang.validate import check, has_backward_call, validate


def problems(src):
    return validate(ast.parse(textwrap.dedent(src)))


def first(src):
    with pytest.raises(GradcliError) as ei:
        check(ast.parse(textwrap.dedent(src)))
    return ei.value


@pytest.mark.parametrize(
    "src, what, line, col",
    [
        ("try:\n    x = 1\nexcept* Exception:\n    pass\n", "try statement with except*", 1, 0),
        ("try:\n    x = 1\nexcept OSError:\n    pass\n", "unsupported exception class: OSError", 3, 7),
        ("try:\n    x = 1\nexcept (ValueError, torch.FooError):\n    pass\n", "unsupported exception class", 3, 7),
        ("def f():\n    global y\n", "global statement", 2, 4),
        ("def f():\n    x = 1\n    def g():\n        nonlocal x\n", "nonlocal statement", 4, 8),
        ("def f():\n    yield 1\n", "yield", 2, 4),
        ("def f():\n    yield from [1]\n", "yield from", 2, 4),
        ("async def f():\n    pass\n", "async def", 1, 0),
        ("match x:\n    case 1:\n        pass\n", "match statement", 1, 0),
        ("y = (x := 3)\n", "assignment expression (:=)", 1, 5),
    ],
)
def test_forbidden_statements(src, what, line, col):
    e = first(src)
    assert e.kind == "unsupported"
    assert what in e.message
    assert (e.line, e.col) == (line, col)


@pytest.mark.parametrize(
    "src",
    [
        "import torch\n",
        "import torch.nn.functional as F\n",
        "import torch.utils.checkpoint\n",
        "import torch.utils.checkpoint as cp\n",
        "from torch.autograd import Function\n",
        "from torch.utils.checkpoint import checkpoint\n",
    ],
)
def test_allowed_imports(src):
    assert problems(src) == []


@pytest.mark.parametrize(
    "src, message",
    [
        ("import os\n", "unsupported import: os"),
        ("import sys as torch\n", "unsupported import: sys"),
        ("import numpy\n", "unsupported import: numpy"),
        ("from torch import *\n", "from torch import *"),
        ("from torch.autograd import *\n", "from torch.autograd import *"),
        ("from os import system\n", "from os import system"),
        ("from . import x\n", "import x"),
        ("import torch.utils.checkpoint as __cp\n", "__cp"),
    ],
)
def test_refused_imports(src, message):
    e = first(src)
    assert e.kind == "unsupported"
    assert message in e.message
    assert e.line == 1


@pytest.mark.parametrize(
    "src, what",
    [
        ("x = torch.ones(2)\ny = x.__class__\n", "__class__"),
        ("y = print._private\n", "_private"),
        ("y = (1)._x\n", "_x"),
        ("y = __import__('os')\n", "__import__"),
        ("y = __builtins__\n", "__builtins__"),
        ("__x = 1\n", "__x"),
        ("def __f():\n    pass\n", "__f"),
        ("def f(__a):\n    pass\n", "__a"),
        ("y = torch.ones(2, _secret=1)\n", "_secret"),
        ("y = 'a'.format_map({})\n", "format_map"),
        ("g = (x for x in [1])\nf = g.gi_frame\n", "gi_frame"),
        ("y = f.f_globals\n", "f_globals"),
        ("y = eval('1')\n", "eval"),
        ("y = exec\n", "exec"),
        ("y = open('f')\n", "open"),
        ("y = object\n", "object"),  # type is a builtin of the language since SPEC §2b real code (lang/type_builtin.py)
        ("y = vars()\n", "vars"),
        ("y = globals()\n", "globals"),
        ("y = compile('1', 'f', 'eval')\n", "compile"),
    ],
)
def test_refused_names_and_attributes(src, what):
    e = first(src)
    assert e.kind == "unsupported"
    assert what in e.message


def test_builtin_name_bound_by_the_file_is_fine():
    assert problems("def open(p):\n    return p\ny = open(1)\n") == []
    assert problems("sorted = 3\nprint(sorted)\n") == []


def test_underscore_names_allowed():
    assert problems("for _ in range(3):\n    _x = 1\nprint(_x)\n") == []


def test_allowed_builtins_pass():
    src = """
    a = [abs(-1), min(1, 2), max(1, 2), sum([1]), len([1]), round(1.5), float(1), int(1.5), bool(1)]
    b = list(range(3)) + list(tuple([1])) + [isinstance(1, int), str(1), dict(a=1)]
    c = [list(enumerate([1])), list(zip([1], [2])), list(reversed([1]))]
    print(a, b, c, True, False, None)
    """
    assert problems(src) == []


def test_every_statement_form_is_allowed():
    src = """
    import torch
    x = 1; y: int = 2
    x += 1
    a, (b, *c) = 1, (2, 3, 4)
    l = [1, 2]
    l[0] = 3
    if x:
        pass
    elif y:
        pass
    else:
        pass
    for i in range(3):
        if i:
            continue
        break
    else:
        pass
    while False:
        pass
    def f(p, q=1, *args, k=2, **kw):
        assert p, "msg"
        return lambda z: z + p
    @f
    def g():
        return [i for i in range(3) if i] + list({k: v for k, v in {}.items()}) + list(i for i in [])
    with torch.no_grad():
        pass
    class Sq(torch.autograd.Function):
        "doc"
        @staticmethod
        def forward(ctx, t):
            return t
        @staticmethod
        def backward(ctx, g):
            return g
    z = f"{x!r:>{y}}" if x < y <= 3 and not x else -x
    s = l[::2], l[1:], l[..., None] if False else 0
    """
    assert problems(src) == []


@pytest.mark.parametrize(
    "src, message, line",
    [
        ("class A(torch.autograd.Function, metaclass=type):\n    pass\n", "takes no keywords", 1),
        ("class A(Function, metaclass=type):\n    pass\n", "takes no keywords", 1),
        ("class A(Function):\n    x = 1\n", "body holds only method defs", 2),
        ("class A(Function):\n    @classmethod\n    def forward(cls):\n        pass\n", "no @classmethod", 3),
        ("class A(Function):\n    @staticmethod\n    @staticmethod\n    def forward(ctx):\n        pass\n",
         "repeated @staticmethod", 4),
        ("@dec\nclass A(Function):\n    pass\n", "class decorator", 1),
    ],
)
def test_class_rules(src, message, line):
    e = first(src)
    assert e.kind == "unsupported"
    assert message in e.message
    assert e.line == line


def test_staticmethod_outside_class_is_refused():
    e = first("f = staticmethod(print)\n")
    assert "staticmethod" in e.message


@pytest.mark.parametrize(
    "src, message, line",
    [
        ("x = 1\nreturn x\n", "'return' outside function", 2),
        ("break\n", "'break' outside loop", 1),
        ("if True:\n    continue\n", "'continue' not properly in loop", 2),
        ("for i in []:\n    def f():\n        break\n", "'break' outside loop", 3),
        ("for i in []:\n    pass\nelse:\n    break\n", "'break' outside loop", 4),
        ("def f(a, a):\n    pass\n", "duplicate argument 'a'", 1),
        ("*a, *b = [1, 2]\n", "multiple starred expressions", 1),
        ("y = 1\ny = *[2]\n", "can't use starred expression here", 2),
        ("x = *x\n",
         "can't use starred expression here", 1),
    ],
)
def test_compile_time_errors_are_syntax(src, message, line):
    e = first(src)
    assert e.kind == "syntax"
    assert message in e.message
    assert e.line == line


def test_all_problems_in_source_order_unsupported_first():
    src = "x = 1\nreturn x\nimport os\ny = z.__dict__\ntry:\n    pass\nexcept* Exception:\n    pass\n"
    ps = problems(src)
    assert [(p.kind, p.line) for p in ps] == [
        ("unsupported", 3),
        ("unsupported", 4),
        ("unsupported", 5),
        ("syntax", 2),
    ]
    e = first(src)
    assert (e.kind, e.line) == ("unsupported", 3)
    assert len(e.problems) == 4


def test_problem_inside_function_body_found_before_running():
    ps = problems("def f():\n    import os\nx = 1\n")
    assert [(p.kind, p.line, p.col) for p in ps] == [("unsupported", 2, 4)]


def test_extra_names_shadow_builtins():
    tree = ast.parse("y = open + 1\n")
    assert validate(tree, extra_names={"open"}) == []
    assert validate(tree) != []


def test_validation_is_iterative():
    # a tree far deeper than Python's recursion limit: the checker must not recurse
    loc = dict(lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)
    expr = ast.Constant(1, **loc)
    for _ in range(5000):
        expr = ast.BinOp(left=expr, op=ast.Add(), right=ast.Constant(1, **loc), **loc)
    tree = ast.Module(body=[ast.Expr(value=expr, **loc)], type_ignores=[])
    assert validate(tree) == []
    wide = "x = [" + ", ".join(["1"] * 50_000) + "]\n"
    assert problems(wide) == []


@pytest.mark.parametrize(
    "src, expected",
    [
        ("y.backward()\n", True),
        ("(x * 2).sum().backward(retain_graph=True)\n", True),
        ("torch.autograd.backward(y)\n", True),
        ("g = torch.autograd.grad(y, x)\n", True),
        ("def f():\n    return autograd.grad(y, x)\n", True),
        ("g = x.grad\n", False),
        ("y = x * 2\n", False),
        ("f = y.backward\n", False),
    ],
)
def test_has_backward_call(src, expected):
    assert has_backward_call(ast.parse(src)) is expected


def test_documented_private_attributes_pass_others_name_them():
    """SPEC §2b: the `_` attributes PyTorch documents are in the language; any other is refused before the run,
    with a message that lists the allowed ones."""
    ok = "x = torch.ones(2, requires_grad=True)\ny = x.exp()\na = (x._version, x._base, x._is_view(), " \
         "y.grad_fn._saved_result, y.grad_fn._raw_saved_result, y.grad_fn.metadata)\n"
    check(ast.parse(ok))
    e = first("x = torch.ones(2)\ny = x._data\n")
    assert e.kind == "unsupported" and "_data" in e.message
    assert "_version, _base, _is_view(), grad_fn._saved_* / _raw_saved_*" in e.message
    assert "the names the file gives its own classes and objects" in e.message
    for bad in ("x._saved___class__", "x.__version", "x._saved_", "x._raw_savedself"):
        assert first(f"x = torch.ones(2)\ny = {bad}\n").kind == "unsupported"


def test_the_files_own_underscore_names_pass_statically():
    """A file's own `_` names (methods, class attributes, assigned attributes, registered names) read anywhere
    in the file pass the static check (the run-time gate decides whose object it is); `__` names, the
    exposure protocol's `_gradcli*` names and `_` names the file never defines stay refused."""
    ok = ("class A:\n    _k = 1\n    def _h(self):\n        return self._k + self._v\n"
          "a = A()\na._v = 2\nb = a._h()\nc = A._k\nm = None\n"
          "def f(mod):\n    mod.register_buffer('_mask', None)\n    return mod._mask\n")
    check(ast.parse(ok))
    assert first("class A:\n    def _h(self):\n        pass\nA()._other\n").kind == "unsupported"
    for bad in ("a.__h = 1\nb = a.__h\n", "a._gradcli_public = 1\nb = a._gradcli_public\n"):
        assert first("a = 1\n" + bad).kind == "unsupported", bad
