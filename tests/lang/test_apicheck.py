"""The unknown-API check (issue 19, must-have 4): PyTorch 2.13 names gradcli does not implement are an
``unsupported`` error before anything runs, naming the name; typos (names PyTorch lacks too) fail where
PyTorch fails, with the closest gradcli name in the hint; a receiver the checker cannot know is checked
when the line runs, with the same message.  What gradcli implements is read from its live namespaces."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gradcli.lang import apicheck
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

sys.path.insert(0, str(Path(__file__).resolve().parent))


def run(src: str, **options):
    return run_file(src, "case.py", RunOptions(**options))


@pytest.mark.parametrize("src, name, line", [
    ("x = torch.ones(2, requires_grad=True)\nprint(x)\ny = x.to_sparse()\n", "Tensor.to_sparse", 3),
    ("x = torch.ones(2)\nprint(x)\ny = torch.fft.fft(x)\n", "torch.fft", 3),
    ("nn = torch.nn\nprint(1)\nlin = nn.Transformer(8, 2)\n", "torch.nn.Transformer", 3),
    ("x = torch.ones(2)\nprint(x)\ny = F.grid_sample(x, x)\n", "torch.nn.functional.grid_sample", 3),
    ("x = torch.randn(3).exp()\nprint(x)\nz = (x * 2)[0].to_mkldnn()\n", "Tensor.to_mkldnn", 3),
    ("print(1)\nopt = torch.optim.LBFGS([], lr=0.1)\n", "torch.optim.LBFGS", 2),
    ("print(1)\nf = torch.func.functionalize(torch.sin)\n", "torch.func.functionalize", 2),
    ("import torch.func as tf\nprint(1)\nf = tf.functionalize\n", "torch.func.functionalize", 3),
])
def test_pytorch_names_gradcli_lacks_are_unsupported_before_running(src, name, line):
    r = run(src)
    assert r.error is not None and (r.error.kind, r.error.line) == ("unsupported", line)
    assert r.error.message == f"`{name}` is PyTorch 2.13 API that gradcli does not implement"
    assert r.stdout == "" and r.tensors == []  # nothing ran, not even the print before it
    assert "gradcli ops" in r.error.hint


def test_torch_func_names_gradcli_has_pass_the_check():
    import ast

    src = ("from torch.func import grad, grad_and_value, vjp, functional_call\nimport torch.func as tf\n"
           "g = tf.grad(torch.sin)\nh = torch.func.vjp\n")
    assert apicheck.api_problems(ast.parse(src)) == []


def test_the_caret_is_on_the_name():
    r = run("x = torch.ones(2)\ny = x.to_sparse()\n")
    assert r.error.col == 6  # `to_sparse`, not `x`


@pytest.mark.parametrize("src", [
    # the file's own objects: a class, a function, a custom Function, a name rebound by a parameter
    "class Box:\n    pass\nb = Box()\nb.cuda = 1\n",
    "def f(F):\n    return F.whatever\n",
    "class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * x\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True)\n"
    "y = Sq.apply(x)\n",
    # receivers whose type depends on the run: checked when the line runs, not before
    "x = torch.ones(2)\nt = [x][0]\nprint(t.sum())\n",
    "g = torch.ones(2, requires_grad=True)\nh = g.grad\n",
])
def test_no_static_problem_where_the_checker_cannot_know(src):
    import ast

    assert apicheck.api_problems(ast.parse(src)) == []


def test_a_value_of_unknown_type_is_checked_when_the_line_runs():
    r = run("x = torch.ones(2)\nt = [x][0]\nprint('before')\ny = t.to_sparse()\n")
    assert (r.error.kind, r.error.line) == ("unsupported", 4)
    assert r.error.message == "`Tensor.to_sparse` is PyTorch 2.13 API that gradcli does not implement"
    assert r.stdout == "before\n"  # the lines before it ran


@pytest.mark.parametrize("src, label, near, line", [
    ("x = torch.ones(2, requires_grad=True)\nprint(x.sum())\ny = x.summ()\n", "Tensor.summ", "Tensor.sum", 3),
    ("print(1)\nz = torch.tensr(1.0)\n", "torch.tensr", "torch.tensor", 2),
    ("x = torch.ones(2)\ny = F.rellu(x)\n", "torch.nn.functional.rellu", "torch.nn.functional.relu", 2),
])
def test_a_typo_fails_where_pytorch_fails_and_the_hint_names_the_closest_name(src, label, near, line):
    r = run(src)
    assert (r.error.kind, r.error.line) == ("runtime", line)  # PyTorch's AttributeError, at that line
    assert "has no attribute" in r.error.message
    assert r.error.hint == f"PyTorch 2.13 has no `{label}` either (an AttributeError there too). Did you mean `{near}`?"
    assert r.stdout.startswith("1\n") or "tensor" in r.stdout or r.stdout == ""


@pytest.mark.torch
@pytest.mark.parametrize("src", [
    "x = torch.ones(2, requires_grad=True)\nprint(x.sum())\ny = x.summ()\n",
    "print(1)\nz = torch.tensr(1.0)\n",
])
def test_a_typo_fails_as_in_pytorch(src):
    pytest.importorskip("torch")
    from gradcli.app.compare import diff_documents
    from gradcli.app.oracle import run_isolated
    from gradcli.app.records import run_document

    assert diff_documents(run_document(run(src)), run_isolated(src, "case.py", RunOptions())) == []


def test_what_gradcli_implements_is_read_from_its_live_namespaces(monkeypatch):
    """A name another part of gradcli adds is accepted as soon as it is there (no list is kept here)."""
    import ast

    from gradcli import api

    tree = ast.parse("x = torch.ones(2)\ny = torch.fft.fft(x)\n")
    assert [p.message for p in apicheck.api_problems(tree)] == [
        "`torch.fft` is PyTorch 2.13 API that gradcli does not implement"]
    real = api.make_globals

    def with_fft():
        g = dict(real())
        torch = g["torch"]
        members = {k: getattr(torch, k) for k in torch._gradcli_public if k not in torch._lazy}
        members["fft"] = api.Namespace("torch.fft", {"fft": lambda t: t})
        g["torch"] = api.Namespace("torch", members, torch._lazy)
        return g

    monkeypatch.setattr(api, "make_globals", with_fft)
    apicheck._prelude.cache_clear()
    try:
        assert apicheck.api_problems(tree) == []
    finally:
        apicheck._prelude.cache_clear()


def test_imports_and_aliases_are_followed():
    import ast

    src = "from torch.nn import functional as G\nx = torch.ones(2)\ny = G.conv3d(x, x)\n"
    [p] = apicheck.api_problems(ast.parse(src))
    assert p.line == 3 and "torch.nn.functional.conv3d" in p.message


def test_every_module_gradcli_has_is_in_the_pytorch_list():
    """The shipped list knows every namespace a file can reach, so each check can say whether PyTorch has
    the name."""
    from gradcli.api import make_globals

    seen, stack = [], [make_globals()["torch"]]
    while stack:
        ns = stack.pop()
        name = apicheck._module_name(ns)
        seen.append(name)
        for m in sorted(ns._gradcli_public):
            v = apicheck._member(ns, m)
            if apicheck._module_name(v) is not None and apicheck._module_name(v) not in seen:
                stack.append(v)
    missing = [n for n in seen if apicheck.torch_has(n, "__nothing__") is None]
    assert not missing


@pytest.mark.torch
def test_the_shipped_list_is_pytorch_2_13s():
    """data/torch_api.json is what tests/lang/record_torch_api.py records from the installed PyTorch (in a
    process of its own: this one never imports torch)."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("torch") is None:
        pytest.skip("PyTorch is not installed: the recorded list cannot be compared with it")
    script = Path(__file__).resolve().parent / "record_torch_api.py"
    p = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
