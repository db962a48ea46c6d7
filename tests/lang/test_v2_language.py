"""SPEC §2b's language: imports, the file's classes, del, sets, formatting, the new builtins."""

from __future__ import annotations

import pytest

from conftest import needs_engine

pytestmark = needs_engine


@pytest.mark.parametrize("src, fragment, hint", [
    ("import numpy as np\n", "unsupported import: numpy", "torch.tensor"),
    ("import os\n", "unsupported import: os", "sandbox"),
    ("import matplotlib.pyplot as plt\n", "unsupported import: matplotlib.pyplot", "plot"),
    ("import torchvision\n", "unsupported import: torchvision", "TensorDataset"),
    ("import random\n", "unsupported import: random", "torch.rand"),
    ("from math import *\n", "from math import *", "name what you use"),
    ("import torch.cuda\n", "unsupported import: torch.cuda", "CPU"),
    ("from typing import List\n", "from typing import List", "annotations"),
])
def test_refused_imports_say_what_to_use(run, src, fragment, hint):
    r = run("print('ran')\n" + src)
    assert r.error.kind == "unsupported" and r.error.line == 2 and fragment in r.error.message, r.error
    assert hint in r.error.hint
    assert r.stdout == ""


@pytest.mark.parametrize("src, fragment", [
    ("from torch import hub\n", "`torch.hub` is PyTorch 2.13 API that gradcli does not implement"),
    ("from torch.nn import Conv9d\n", "cannot import name 'Conv9d' from 'torch.nn'"),
    ("from math import nosuch\n", "cannot import name 'nosuch' from 'math'"),
])
def test_names_a_module_lacks_are_refused_before_anything_runs(run, src, fragment):
    r = run("print('ran')\nx = 1\n" + src)
    assert r.error.kind == "unsupported" and r.error.line == 3 and fragment in r.error.message, r.error
    assert r.stdout == ""


def test_a_listed_module_gradcli_lacks_is_refused_naming_it():
    from gradcli.api import Namespace
    from gradcli.lang.imports import ImportRefused, resolve_member, resolve_module

    torch_ns = Namespace("torch", {"nn": Namespace("torch.nn", {"Linear": 1})})
    roots = {"torch": lambda: torch_ns}
    assert resolve_module("torch.nn", roots).Linear == 1
    with pytest.raises(ImportRefused, match="does not implement torch.optim"):
        resolve_module("torch.optim.lr_scheduler", roots)
    with pytest.raises(ImportRefused, match="has no 'Conv2d'"):
        resolve_member(torch_ns.nn, "torch.nn", "Conv2d")


def test_import_binds_namespaces(run):
    r = run("""
        import torch.nn as nn, math as m
        import torch.nn.init
        from torch.nn import Linear as L, ReLU
        from torch import Tensor
        import torch as t
        print(nn is torch.nn, L is nn.Linear, t is torch, m.pi, Tensor is torch.Tensor, torch.nn.init.zeros_ is nn.init.zeros_)
    """)
    assert r.ok, r.error
    assert r.stdout == "True True True 3.141592653589793 True True\n"


def test_math_is_a_namespace_of_python_functions(run):
    r = run("""
        import math
        print(math.sqrt(2), math.log(8, 2), math.factorial(5), math.prod([2, 3]), math.fsum([0.1] * 10))
        print(math.sqrt(torch.tensor(9.0)), math.ceil(1.2), math.isnan(math.nan))
    """)
    assert r.ok, r.error
    assert r.stdout == "1.4142135623730951 3.0 120 6 1.0\n3.0 2 True\n"


def test_class_statement_runs_twice_and_super_finds_each_class(run):
    r = run("""
        def make(k):
            class Base:
                def f(self):
                    return k
            class Sub(Base):
                def f(self):
                    return super().f() * 10
            return Sub()
        a = make(1)
        b = make(2)
        print(a.f(), b.f())
    """)
    assert r.ok, r.error
    assert r.stdout == "10 20\n"


def test_super_in_a_nested_function_or_without_arguments(run):
    r = run("""
        class A:
            def f(self):
                g = lambda: super()
                return g()
        A().f()
    """)
    assert r.error.kind == "runtime" and r.error.line == 4 and "no arguments" in r.error.message


def test_methods_are_bound_and_classes_expose_their_functions(run):
    r = run("""
        class A:
            def f(self, x):
                return x + 1
        a = A()
        g = a.f
        print(g(1), A.f(a, 2), a.f == a.f, A)
        a.f = lambda x: x * 100
        print(a.f(1))
    """)
    assert r.ok, r.error
    assert r.stdout == "2 3 True <class '__main__.A'>\n100\n"


def test_del_forms_and_errors(run):
    r = run("""
        def f():
            x = 1
            del x
            return x
        y = f()
    """)
    assert r.error.kind == "name" and r.error.line == 5
    r = run("del zz\n")
    assert r.error.kind == "name" and "zz" in r.error.message
    r = run("t = torch.ones(2)\ndel t[0]\n")
    assert r.error.kind == "type" and r.error.line == 2


def test_str_format_errors_are_pythons(run):
    for src, kind in (("'{}'.format()", "index"), ("'{a}'.format()", "runtime"), ("'{0}{}'.format(1, 2)", "runtime"),
                      ("'{'.format(1)", "runtime"), ("'%d' % 'x'", "type"), ("'%s %s' % (1,)", "type")):
        r = run(f"s = {src}\n")
        assert r.error.kind == kind and r.error.line == 1, (src, r.error)


def test_sets_and_set_comprehensions(run):
    r = run("a = {1, 2}\nb = {x * x for x in range(4) if x}\nprint(a | b, frozenset(b) == b, set('ab') - {'a'})\n")
    assert r.ok, r.error
    assert r.stdout == "{1, 2, 4, 9} True {'b'}\n"


def test_name_main_is_readable_not_assignable(run):
    assert run("print(__name__)\n").stdout == "__main__\n"
    r = run("__name__ = 'x'\n")
    assert r.error.kind == "unsupported"
