"""compare's PyTorch side behind the walls (``gradcli.app.oracle_walls``): attacks, the gate, and results kept.

1. The attacks of issue 24 and more (``torch.save``, ``t.numpy().tofile``, ``torch.load`` of a crafted
   file, ``torch.hub``, ``open`` through ``torch.serialization``, ``np.save``-style paths through a
   returned array, a subclass of a proxied class, ``str(torch)``), each through ``gradcli compare``
   in a scratch folder: no file appears in or outside it, the local server a download would reach
   sees no connection, the PyTorch side ends with an error kind, and the report says which side
   failed (a ``PyTorch side`` row: the walls stopped it).
2. The gate itself, in process: the proxies expose exactly gradcli's live namespace names; the pairs
   come from walking gradcli's namespaces; the file's own classes, ``super()``, ``ctx``; the numpy view.
3. Programs whose JSON must not change under the walls (positions of errors and warnings in split
   chains, hooks, ``--set``/``--gradient``), compared with and without them.
4. Every escape attempt of tests/lang/test_sandbox.py, run by the walled oracle under real PyTorch.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import socket
import sys
import threading
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from gradcli.app.oracle import INSTALL_HINT, OracleFailure, run_document, run_isolated, torch_available
from gradcli.lang.result import RunOptions

pytestmark = [
    pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed, so the walls cannot be tried: "
                                                     f"{INSTALL_HINT}"),
    pytest.mark.torch,
]

KINDS = {"runtime", "unsupported", "type", "name", "index", "syntax", "limit"}


# --- helpers -----------------------------------------------------------------------------------------------
@pytest.fixture(autouse=True, scope="module")
def _one_intra_op_thread():
    """This module forks walled children from a process that also runs PyTorch in process: with PyTorch at
    one intra-op thread (oracle.warm_up, as every harness that forks many children), a child's conv2d or
    batch norm does not wait forever on an OpenMP pool lost across fork (``gradcli compare`` forks from a
    parent that has run no PyTorch op)."""
    from gradcli.app.oracle import warm_up

    warm_up()


@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    for k in ("NO_COLOR", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("COLUMNS", "120")
    return CliRunner()


class _Server:
    """A local HTTP-ish server counting connections (a fetch by the PyTorch side would land here)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop:
            try:
                c, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            c.close()

    def close(self) -> None:
        self._stop = True
        self.thread.join(2)
        self.sock.close()


@pytest.fixture
def server():
    s = _Server()
    yield s
    s.close()


def _tree(root: Path) -> set:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


class _Reduce:
    """Unpickling this runs ``os.system`` (what a crafted ``torch.load`` file does)."""

    def __init__(self, cmd: str) -> None:
        self.cmd = cmd

    def __reduce__(self):
        return (os.system, (self.cmd,))


# --- 1. attacks through gradcli compare ----------------------------------------------------------------------
# OUT: a relative name (lands in the cwd); ABS: a path outside the cwd; MARK: what a crafted file would create.
# gradcli's static check refuses PyTorch API it lacks on a receiver it knows (``torch.save``, ``x.share_memory_()``:
# lang/apicheck.py), and compare never runs such a file under PyTorch (test_attack_spelled_plainly_is_never_run).
# So every attack goes through ``via(...)``, a function of the file the check cannot see through: the file is in
# the language, gradcli runs it (and fails at the attack's line), and so does the PyTorch side -- behind the walls.
VIA = "def via(v):\n    return v\n"
ATTACKS = {
    "torch_save": "x = torch.ones(1)\nvia(torch).save(x, OUT)\nvia(torch).save(x, ABS)\n",
    "numpy_tofile": "a = torch.ones(2).numpy()\na.tofile(ABS)\n",
    "numpy_dump": "a = torch.ones(2).numpy()\na.dump(OUT)\n",
    "numpy_derived_array_tofile": "a = torch.ones(2, 2).numpy()\nb = a.T.copy().reshape(4) + 1\nb.tofile(ABS)\n",
    "numpy_scalar_tofile": "s = torch.ones(2).numpy().sum()\ns.tofile(ABS)\n",
    "numpy_dumps_then_save": "a = torch.ones(2).numpy()\nd = a.dumps()\n",
    "numpy_module_through_array": "a = torch.ones(2).numpy()\nnp_type = a.dtype.type\nnp_type(1).tofile(ABS)\n",
    "numpy_save_through_array": "a = torch.ones(2).numpy()\nnp_save = via(a).dtype.type.__module__\n",
    "numpy_base_array": "a = torch.ones(2).numpy()\nb = a.base\nb.tofile(ABS)\n",
    "numpy_caught_then_dump": "a = torch.ones(2).numpy()\ntry:\n    a.tofile(ABS)\nexcept AttributeError:\n"
                              "    print('caught')\na.dump(OUT)\n",
    "numpy_write_through": "x = torch.ones(2)\na = x.numpy()\na[0] = 5.0\nprint(x)\n",
    "numpy_inplace": "x = torch.ones(2)\na = x.numpy()\na += 1\nprint(x)\n",
    "torch_load_crafted": "x = via(torch).load(CRAFTED, weights_only=False)\n",
    "torch_hub_load": "m = via(torch).hub.load('pytorch/vision', 'resnet18')\n",
    "torch_hub_download": "via(torch).hub.download_url_to_file(URL, ABS)\n",
    "serialization_os_open": "fd = via(torch).serialization.os.open(ABS, 577)\n",
    "serialization_io_open": "f = via(torch).serialization.io.open(ABS, 'w')\n",
    "serialization_builtins_open": "f = via(torch).serialization.builtins.open(ABS, 'w')\n",
    "torch_from_file": "t = via(torch).from_file(ABS, shared=True, size=4)\n",
    "torch_ops": "e = via(torch).ops.aten.empty\n",
    "cpp_extension": "m = via(torch).utils.cpp_extension.load_inline('m', 'int x;')\n",
    "tensor_share_memory": "x = torch.ones(2)\nvia(x).share_memory_()\n",
    "storage_from_file": "x = torch.ones(2)\ns = via(x.untyped_storage())\nt = s.from_file(ABS, True, 4)\n",
    "storage_share_memory": "x = torch.ones(2)\ns = via(x.untyped_storage())\ns.share_memory_()\n",
    # (a new attribute is the tensor's own, as in PyTorch: x.save = 1 runs on both sides; one that would shadow
    # something torch.Tensor has is refused by the walls, so PyTorch's code never meets the file's value there)
    "tensor_setattr": "x = torch.ones(2)\nx.storage = 1\n",
    "namespace_overwrite": "torch.ones = torch.zeros\n",
    "class_attribute_overwrite": "class A:\n    pass\nA.save = 1\n",
    "function_subclass_saves": (
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        via(torch).save(a, ABS)\n"
        "        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "x = torch.ones(1, requires_grad=True)\ny = A.apply(x)\n"),
    "function_subclass_ctx_internals": (
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        t = ctx.to_save\n"
        "        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "x = torch.ones(1, requires_grad=True)\ny = A.apply(x)\n"),
    "module_subclass_saves": (
        "class M(torch.nn.Module):\n    def forward(self, a):\n        via(torch).save(self.state_dict(), ABS)\n"
        "        return a\nm = M()\ny = m(torch.ones(1))\n"),
    "hook_saves": "x = torch.ones(1, requires_grad=True)\nh = x.register_hook(lambda g: via(torch).save(g, ABS))\n"
                  "(x * 2).sum().backward()\n",
    "caught_then_retried": "try:\n    via(torch).save(torch.ones(1), ABS)\nexcept AttributeError:\n    print('caught')\n"
                           "via(torch).save(torch.ones(1), OUT)\n",
    "print_to_file": "try:\n    print('x', file=[])\nexcept Exception:\n    print('caught')\n",
    "dunder_reduce": "x = torch.ones(1)\nr = x.__reduce_ex__(2)\n",
}

#: the attacks spelled as a user would write them: gradcli refuses each before running (PyTorch API it does not
#: implement, on a receiver its static check knows), so compare only checks them on the PyTorch side
PLAIN = {
    "torch_save": "x = torch.ones(1)\ntorch.save(x, OUT)\n",
    "torch_load": "x = torch.load(CRAFTED, weights_only=False)\n",
    "torch_hub_load": "m = torch.hub.load('pytorch/vision', 'resnet18')\n",
    "serialization_open": "f = torch.serialization.builtins.open(ABS, 'w')\n",
    "torch_from_file": "t = torch.from_file(ABS, shared=True, size=4)\n",
    "torch_ops": "e = torch.ops.aten.empty\n",
    "tensor_share_memory": "x = torch.ones(2)\nx.share_memory_()\n",
    "aliased_module": "import torch as t\nimport torch.nn as nn\nt.save(nn.Linear(1, 1).state_dict(), ABS)\n",
    "str_torch_branch": "if 'from' in str(torch):\n    torch.save(torch.ones(1), OUT)\n",
}

#: torch.utils.cpp_extension is not imported by ``import torch``: real PyTorch fails on it as gradcli does
FAILS_IN_PYTORCH_TOO = {"cpp_extension"}
#: a dunder attribute: refused by the language before anything runs, on both sides
REFUSED_BEFORE_RUNNING = {"dunder_reduce", "numpy_save_through_array"}
#: the file catches the (catchable, ``runtime``) refusal of its first attempt and goes on to the next
CAUGHT_FIRST = {"numpy_caught_then_dump"}
#: gradcli's NDArray has no in-place operators, so ``a += 1`` makes a new array there (the tensor is not
#: changed); real numpy writes through into the tensor, which the walls' read-only view refuses
GRADCLI_RUNS_ON = {"numpy_inplace", "tensor_setattr"}


def _attack_source(src: str, tmp_path: Path, server: _Server) -> str:
    return (src.replace("OUT", repr("out.bin")).replace("ABS", repr(str(tmp_path / "outside" / "abs.bin")))
            .replace("CRAFTED", repr("crafted.pt")).replace("URL", repr(f"http://127.0.0.1:{server.port}/w.pt")))


def _scene(tmp_path: Path, src: str, server: _Server, monkeypatch) -> tuple:
    """A scratch folder with the attack file, a folder outside it and a crafted pickle; (file, mark, tree)."""
    work = tmp_path / "work"
    (tmp_path / "outside").mkdir()
    work.mkdir()
    monkeypatch.chdir(work)
    mark = tmp_path / "outside" / "MARK"
    with open(work / "crafted.pt", "wb") as fh:
        pickle.dump(_Reduce(f"touch {mark}"), fh)
    f = work / "attack.py"
    f.write_text(_attack_source(src, tmp_path, server))
    return f, mark, _tree(tmp_path)


def _compare_json(runner, f: Path) -> tuple:
    result = runner.invoke(app(), ["compare", str(f), "--json"])
    doc = json.loads(result.output)
    schema = json.loads(resources.files("gradcli").joinpath("schemas/compare.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    return result, doc


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_through_compare(name, runner, tmp_path, monkeypatch, server):
    f, mark, before = _scene(tmp_path, VIA + ATTACKS[name], server, monkeypatch)
    result, doc = _compare_json(runner, f)
    assert _tree(tmp_path) == before, "the attack left a file"
    assert not mark.exists() and server.connections == 0
    p = doc["pytorch"]
    if name in REFUSED_BEFORE_RUNNING:
        # gradcli's static check refuses it: the PyTorch side only checks it (the same verdict), never runs it
        assert doc["gradcli"]["error"]["kind"] == p["error"]["kind"] == "unsupported" and doc["identical"], doc
        assert result.exit_code == 1  # identical, and the file fails
        return
    if name in FAILS_IN_PYTORCH_TOO:  # PyTorch itself fails there as gradcli does: nothing to stop
        assert result.exit_code == 1 and doc["identical"] and p["error"]["kind"] == "runtime"
        return
    assert result.exit_code == 1, result.output
    assert doc["identical"] is False
    # the PyTorch side ends with an error kind -- the one gradcli gives there (unsupported refusals uncaught)
    assert p["ok"] is False and p["error"]["kind"] in KINDS, p["error"]
    g = doc["gradcli"]["error"]
    if name in GRADCLI_RUNS_ON:
        assert g is None
    else:
        assert g is not None and (g["kind"], g["line"]) == (p["error"]["kind"], p["error"]["line"]), (g, p["error"])
    assert p["stdout"] == ("caught\n" if name in CAUGHT_FIRST else "")
    # the report says which side failed: the PyTorch side stopped at the walls, at the attack's line
    first = doc["differences"][0]
    assert first["field"] == "PyTorch side" and first["pytorch"].startswith("stopped by compare's walls"), first
    assert doc["walls"]["refused"] and doc["walls"]["left"] == []
    assert doc["walls"]["refused"][0]["line"] == p["error"]["line"] or name in CAUGHT_FIRST
    assert doc["walls"]["process"]["audit"] is True


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_attack_spelled_plainly_is_never_run(name, runner, tmp_path, monkeypatch, server):
    """gradcli refuses the plain spelling before running it; compare then does not execute it under PyTorch."""
    f, mark, before = _scene(tmp_path, PLAIN[name], server, monkeypatch)
    result, doc = _compare_json(runner, f)
    assert _tree(tmp_path) == before and not mark.exists() and server.connections == 0
    assert result.exit_code == 1 and doc["pytorch"] is None and doc["walls"] == {}
    assert doc["gradcli"]["error"]["kind"] == "unsupported"
    assert "API that gradcli does not implement" in doc["gradcli"]["error"]["message"]
    assert "compare does not execute files outside gradcli's language" in doc["note"]


def app():
    from gradcli.cli import app as cli_app

    return cli_app


def test_str_torch_branch_is_gradclis(runner, tmp_path, monkeypatch):
    """`if 'from' in str(torch)` is false in gradcli: the walled PyTorch side prints modules as gradcli does,
    so the branch is false there too, no install path is printed, and the file is identical."""
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "branch.py"
    f.write_text(VIA + "if 'from' in str(torch):\n    via(torch).save(torch.ones(1), 'out.bin')\n"
                 "print(str(torch), F, torch.nn, torch.autograd, torch.nn.functional, [torch.utils])\n")
    result = runner.invoke(app(), ["compare", str(f), "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 0, doc["differences"]
    assert doc["identical"] is True
    out = doc["pytorch"]["stdout"]
    assert out == doc["gradcli"]["stdout"]
    import torch

    assert "from" not in out and os.path.dirname(torch.__file__) not in out and sys.prefix not in out
    assert sorted(os.listdir(tmp_path)) == ["branch.py"]


def test_a_file_gradcli_runs_is_identical_behind_the_walls(runner, tmp_path):
    f = tmp_path / "ok.py"
    f.write_text("x = torch.tensor([1.0, 2.0], requires_grad=True)\na = x.detach().numpy()\n"
                 "y = (x * x).sum()\ny.backward()\nprint(x.grad, a, a.sum(), y.grad_fn.next_functions)\n")
    result = runner.invoke(app(), ["compare", str(f), "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 0 and doc["identical"], doc["differences"]
    assert doc["walls"]["refused"] == [] and doc["walls"]["left"] == []
    assert doc["walls"]["process"]["limits"]["RLIMIT_FSIZE"] == 0


def test_human_report_names_the_walls(runner, tmp_path):
    f = tmp_path / "save.py"
    f.write_text(VIA + "x = torch.ones(1)\nvia(torch).save(x, 'out.bin')\n")
    result = runner.invoke(app(), ["compare", str(f)])
    assert result.exit_code == 1
    assert "PyTorch side stopped" in result.output and "line 4" in result.output
    assert "PyTorch side" in result.output and "stopped by compare's walls" in result.output


# --- 2. the gate, in process -------------------------------------------------------------------------------
def _walls(*accepted: str):
    from gradcli.app import oracle
    from gradcli.app.oracle_walls import Walls

    oracle._preload(True)
    return Walls("<test>", accepted)


def test_proxies_expose_exactly_gradclis_live_names(monkeypatch):
    import torch

    from gradcli.app.oracle_walls import ModuleProxy, WallAttributeError, WallUnsupported, surface

    w = _walls()
    ns = surface().roots["torch"]
    p = w.proxy(torch, ns)
    for name in sorted(ns._gradcli_public):
        v = getattr(p, name)
        assert v is getattr(torch, name) or type(v) is ModuleProxy, name
    # PyTorch API gradcli lacks: gradcli's unsupported error (lang/apicheck.py), uncatchable
    for name in ("save", "load", "hub", "from_file", "ops", "jit", "serialization", "set_default_tensor_type",
                 "library", "package", "compile"):
        with pytest.raises(WallUnsupported, match=f"`torch.{name}` is PyTorch 2.13 API that gradcli does not"):
            getattr(p, name)
    for name in ("_C", "nosuch"):  # no public PyTorch name: Python's AttributeError, as in gradcli
        with pytest.raises(WallAttributeError, match=f"module 'torch' has no attribute '{name}'"):
            getattr(p, name)
    with pytest.raises((WallAttributeError, WallUnsupported), match="cpp_extension"):
        getattr(p.utils, "cpp_extension")
    # derived, not listed: a name registered in gradcli's namespace appears behind the wall
    monkeypatch.setattr(ns, "_gradcli_public", ns._gradcli_public | {"tile"})
    assert w.proxy(torch, ns).tile is torch.tile
    with pytest.raises(AttributeError):
        p.ones = None
    assert str(p) == repr(ns) == "<module 'torch'>"


def test_pairs_come_from_gradclis_namespaces():
    import torch

    from gradcli.api import Namespace
    from gradcli.app.oracle_walls import surface

    s = surface()
    from gradcli.autograd.tensor import Size, Tensor

    assert s.pairs[torch.Tensor] is Tensor and s.pairs[torch.Size] is Size
    # every class gradcli exposes by name, where PyTorch has the same name, is paired
    stack = [(s.roots["torch"], torch)]
    n = 0
    while stack:
        ns, real = stack.pop()
        for name in ns._gradcli_public:
            gv, rv = getattr(ns, name), getattr(real, name, None)
            if isinstance(gv, Namespace) and rv is not None:
                stack.append((gv, rv))
            elif isinstance(gv, type) and isinstance(rv, type) and hasattr(gv, "_gradcli_public"):
                assert s.pairs[rv] is gv, name
                n += 1
    assert n >= 8


def _exec_walled(src: str, w):
    """Run ``src`` through the gate (rewrite + the walls' builtins), skipping the static check on purpose:
    the gate must hold by itself for constructs the language may allow later (a subclass of torch.Tensor)."""
    import ast

    import torch  # noqa: F401

    from gradcli.app.oracle_walls import rewrite

    tree = ast.parse(src, "<test>")
    code = compile(ast.fix_missing_locations(rewrite(tree)), "<test>", "exec")
    g: dict = {"__name__": "__main__"}
    w.fill_globals(g, tree, {})
    with w:
        exec(code, g)
    return g


def test_subclass_of_a_proxied_class_reaches_only_gradclis_names():
    from gradcli.app.oracle_walls import WallAttributeError, WallUnsupported

    w = _walls("super")  # a builtin the language accepts
    g = _exec_walled(
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = torch.nn.Linear(2, 1)\n    def mine(self):\n        return 7\n"
        "m = M()\na = m.mine()\nb = len(list(m.parameters()))\nm.note = 3\nc = m.note\nd = m.training\n"
        "e = m.lin.weight.shape\nm.lin.weight = torch.nn.Parameter(torch.zeros(1, 2))\nf = m.lin.in_features\n", w)
    assert (g["a"], g["b"], g["c"], g["d"], tuple(g["e"]), g["f"]) == (7, 2, 3, True, (1, 2), 2)
    # PyTorch's Module has them, gradcli's does not: refused on the file's subclass and on the layers
    for attr in ("share_memory", "to_empty", "register_state_dict_pre_hook", "ipu"):
        with pytest.raises(WallAttributeError):
            _exec_walled(f"class M(torch.nn.Module):\n    pass\nx = M().{attr}\n", w)
        with pytest.raises(WallAttributeError):
            _exec_walled(f"x = torch.nn.Linear(2, 2).{attr}\n", w)
    with pytest.raises(WallAttributeError):  # a class the file derives from torch.autograd.Function
        _exec_walled("class A(torch.autograd.Function):\n    pass\nr = A.mark_dirty\n", w)
    with pytest.raises(WallUnsupported, match="cannot derive from Tensor"):  # as gradcli refuses it
        _exec_walled("class T(torch.Tensor):\n    pass\n", w)
    with pytest.raises(TypeError):
        _exec_walled("class X(torch):\n    pass\n", w)
    with pytest.raises(NameError):  # builtins are the language's, even where the static check is skipped
        _exec_walled("f = open('x', 'w')\n", w)


def test_super_and_init_pass_the_gate():
    w = _walls("super")
    g = _exec_walled("class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                     "    def train(self, mode=True):\n        return super().train(mode)\n"
                     "m = M()\nr = m.train(False) is m\nt = m.training\n"
                     "class N(torch.nn.Module):\n    def __init__(self):\n        torch.nn.Module.__init__(self)\n"
                     "n = N()\n", w)
    assert g["r"] is True and g["t"] is False
    from gradcli.app.oracle_walls import WallAttributeError

    with pytest.raises(WallAttributeError):
        _exec_walled("class M(torch.nn.Module):\n    def f(self):\n        return super().share_memory\n"
                     "M().f()\n", w)
    with pytest.raises(WallAttributeError):  # __init__ of a base class, not of an instance
        _exec_walled("x = torch.ones(1)\ni = x.__init__\n", w)


def test_getattr_and_hasattr_pass_the_gate():
    doc = run_document("x = torch.ones(2)\na = x.numpy()\nprint(getattr(x, 'sum')(), hasattr(x, 'tofile'), "
                       "hasattr(a, 'tofile'), getattr(a, 'dump', 'no'))\nprint(getattr(torch, 'save'))\n",
                       "f.py", walls=True)
    assert doc["stdout"] == "tensor(2.) False False no\n"
    assert doc["error"]["kind"] == "unsupported" and doc["error"]["line"] == 4  # as gradcli's getattr
    assert "`torch.save` is PyTorch 2.13 API that gradcli does not implement" in doc["error"]["message"]
    doc = run_document("x = torch.ones(1)\ny = getattr(x, '_version')\n", "f.py", walls=True)
    assert doc["error"]["kind"] == "unsupported" and doc["error"]["line"] == 2


def test_imports_resolve_before_anything_runs(monkeypatch):
    """An import gradcli cannot honour is refused before the file runs, as gradcli's compile step does."""
    from gradcli.app.oracle_walls import surface

    w = _walls()
    ns = w.surface.roots["torch"]
    monkeypatch.setattr(ns, "_gradcli_public", ns._gradcli_public - {"autograd"})
    report: dict = {}
    doc = run_document("print('ran')\nfrom torch.autograd import grad\n", "f.py", walls=True, report=report)
    assert doc["stdout"] == "" and doc["error"]["kind"] == "unsupported" and doc["error"]["line"] == 2
    assert report["refused"][0]["what"] == "import"
    from gradcli.lang.validate import ALLOWED_MODULES

    assert {m.split(".")[0] for m in ALLOWED_MODULES} <= set(surface().roots)  # a root for every module
    doc = run_document("import math\nimport torch.nn as nn\nfrom torch import nn as n2\n"
                       "print(math.sqrt(4.0), math, nn, n2 is nn)\n", "f.py", walls=True)
    assert doc["ok"], doc["error"]
    assert doc["stdout"] == "2.0 <module 'math'> <module 'torch.nn'> True\n"


def test_numpy_view_is_read_only_and_prints_as_numpy():
    import numpy as np
    import torch

    from gradcli.app.oracle_walls import NDArrayView, WallTypeError

    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = x.numpy().view(NDArrayView)
    b = x.numpy()
    assert repr(a) == repr(b) and str(a) == str(b) and repr(a.sum()) == repr(b.sum())
    assert repr(a.max(axis=0)) == repr(b.max(axis=0)) and repr([a]) == repr([b])
    assert torch.equal(torch.tensor(a), torch.tensor(b)) and type(a + 1) is NDArrayView
    for bad in (lambda: a.__setitem__(0, 1.0), lambda: a.__iadd__(1), lambda: a.tofile("x"), lambda: a.dump("x")):
        with pytest.raises(WallTypeError):
            bad()
    assert np.array_equal(x.numpy(), [[1.0, 2.0], [3.0, 4.0]])


def test_format_fields_may_not_reach_attributes():
    from gradcli.app.oracle_walls import WallUnsupported, _check_format

    _check_format("{} {0} {a:>{w}} {:.3f}")
    for bad in ("{0.__class__}", "{a[0]}", "{x:{0.__class__}}", "{0.real}"):
        with pytest.raises(WallUnsupported):
            _check_format(bad)


def test_unsupported_refusals_cannot_be_caught():
    doc = run_document("try:\n    print('x', file=[])\nexcept Exception:\n    print('caught')\nprint('after')\n",
                       "f.py", walls=True)
    assert doc["error"]["kind"] == "unsupported" and doc["error"]["line"] == 2 and doc["stdout"] == ""


def test_pytorchs_own_imports_pass_while_a_file_runs():
    """C code importing a module (PyTorch's torch.tensor imports torch.storage) goes through the frame's
    __import__; the walls hand it the real import, and a file's import statement gets proxies."""
    doc = run_document("import torch\nfrom torch.autograd import Function\nimport torch.nn.functional as F\n"
                       "import torch.utils.checkpoint as cp\nx = torch.tensor([1.0, 2.0])\n"
                       "print(torch, F, Function, x.numpy(), cp)\n", "f.py", walls=True)
    assert doc["ok"], doc["error"]
    assert doc["stdout"].startswith("<module 'torch'> <module 'torch.nn.functional'> <class 'torch.autograd.")


def test_command_line_expressions_pass_the_gate(tmp_path):
    from gradcli.app.oracle import OracleInvocationError

    target = tmp_path / "cli.bin"
    with pytest.raises(OracleInvocationError, match="`torch.save` is PyTorch 2.13 API"):
        run_document("y = x * 2\n", "f.py", RunOptions(sets=[("x", f"torch.save(torch.ones(1), {str(target)!r})")]),
                     walls=True)
    doc = run_document("x = torch.ones(2, requires_grad=True)\ny = x * 2\n", "f.py",
                       RunOptions(backward="y", gradient=f"torch.ones(2).numpy().tofile({str(target)!r})"), walls=True)
    assert doc["error"]["kind"] == "runtime" and doc["error"]["line"] is None
    with pytest.raises(OracleInvocationError, match="unsupported"):
        run_document("y = x\n", "f.py", RunOptions(sets=[("x", "__import__('os')")]), walls=True)
    assert not target.exists()


# --- 3. the walls change no result -------------------------------------------------------------------------
SAME = {
    "split_attribute_error": "x = torch.ones(2)\ny = (x\n     .foo)\n",
    "split_method_error": "x = torch.ones(2)\ny = (x\n     .sum(5, 6, 7))\n",
    "split_chain_ok": "x = torch.ones(2, requires_grad=True)\ny = (x\n     .mul(2)\n     .sum())\ny.backward()\n",
    "error_in_function": "def f(t):\n    return t.nosuch()\nx = torch.ones(1)\nf(x)\n",
    "error_in_hook": "x = torch.ones(1, requires_grad=True)\nh = x.register_hook(lambda g: g.nosuch)\n"
                     "(x * 2).sum().backward()\n",
    "non_leaf_grad_warning_split": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nz = (y\n     .grad)\n",
    "custom_function_ctx": (
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        ctx.k = 3\n"
        "        ctx.save_for_backward(a)\n        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n"
        "        a, = ctx.saved_tensors\n        return g * ctx.k * ctx.needs_input_grad[0]\n"
        "x = torch.ones(2, requires_grad=True)\ny = A.apply(x)\ny.sum().backward()\nprint(x.grad, y.grad_fn)\n"),
    "grad_fn_walk": "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\nn = y.grad_fn.next_functions[0][0]\n"
                    "print(n.name(), n.next_functions[0][0].variable is x, n.metadata)\n",
    "augassign_attribute": "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\nx.grad += 1\n"
                           "x.requires_grad = False\nprint(x.grad, x.requires_grad)\n",
    "set_grad_none_and_tensor": "x = torch.ones(2, requires_grad=True)\nx.grad = torch.zeros(2)\nx.grad = None\n"
                                "x.data = torch.zeros(2)\nprint(x)\n",
    "size_and_dtype": "x = torch.ones(2, 3)\nprint(x.shape, x.shape.numel(), x.dtype.is_floating_point, x.size(1))\n",
    "max_return_type": "x = torch.tensor([[1.0, 5.0], [3.0, 2.0]])\nm = x.max(dim=0)\nprint(m.values, m.indices, m)\n",
    "numpy_view": "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\na = x.numpy()\n"
                  "print(a, a.sum(), a.mean(), a.max(), a.T, a.shape, a.dtype, a.ndim, a.size, a[0], a + 1, [a])\n"
                  "print(a.tolist(), a.reshape(4), a.copy(), len(a), torch.tensor(a))\n",
    "exceptions_caught": "try:\n    torch.ones(2) @ torch.ones(3)\nexcept RuntimeError as e:\n    print(e.args[0][:20])\n"
                         "try:\n    torch.ones(1).nosuch\nexcept AttributeError as e:\n    print('caught', e)\n",
    "imports": "import torch\nimport torch.nn.functional as F\nfrom torch.autograd import Function\n"
               "from torch.utils.checkpoint import checkpoint\nimport torch.utils.checkpoint as cp\n"
               "x = torch.ones(2, requires_grad=True)\n"
               "y = checkpoint(lambda a: F.relu(a) * 2, x, use_reentrant=False)\ny.sum().backward()\nprint(x.grad)\n"
               "z = cp.checkpoint(lambda a: a * 3, x, use_reentrant=False)\nprint(z)\n",
    # a C method called with arguments it does not take: the message names the descriptor's class (TensorBase)
    "method_call_message": "w = torch.ones(2)\ntry:\n    w.exp_(1)\nexcept TypeError as e:\n    print(e)\n"
                           "m = w.sum\nprint(m(), w.add(1), w.numpy().sum())\nw.exp_(1)\n",
    "string_methods": "s = 'a,b'\nprint(s.split(','), ','.join(['x', 'y']), s.upper(), [1, 2].count(1), {'a': 1}.get('a'))\n",
    "grad_mode_decorator": "@torch.no_grad()\ndef f(t):\n    return t * 2\nx = torch.ones(1, requires_grad=True)\n"
                           "print(f(x).requires_grad)\nwith torch.enable_grad():\n    print(torch.is_grad_enabled())\n",
}


@pytest.mark.parametrize("name", sorted(SAME))
def test_walls_change_no_result(name):
    src = SAME[name]
    plain = run_document(src, "f.py")
    walled = run_document(src, "f.py", walls=True)
    assert walled == plain


def test_dataloader_workers_load_in_the_process():
    """A real snippet's DataLoader(num_workers=2) cannot start workers behind the process walls; as in gradcli,
    it loads in the process: the batches of num_workers=0 (shuffled from the same seed draw), PyTorch's checks."""
    src = ("ds = torch.utils.data.TensorDataset(torch.arange(10.0))\n"
           "loader = torch.utils.data.DataLoader(ds, batch_size=3, shuffle=True, num_workers=W, drop_last=True)\n"
           "for e in range(2):\n    for b in loader:\n        print(b)\nprint(len(loader), loader.num_workers)\n")
    report: dict = {}
    walled = run_isolated(src.replace("W", "2"), "f.py", RunOptions(), timeout=120, walls=True, report=report)
    plain = run_isolated(src.replace("W", "0"), "f.py", RunOptions(), timeout=120)
    assert walled["ok"] and report["refused"] == [] and report["process"]["refused"] == []
    assert walled["stdout"] == plain["stdout"].replace("3 0\n", "3 2\n") and plain["stdout"].count("tensor") == 6
    doc = run_document("ds = torch.utils.data.TensorDataset(torch.ones(2))\n"
                       "l = torch.utils.data.DataLoader(ds, num_workers=-1)\n", "f.py", walls=True)
    assert doc["error"]["kind"] == "runtime" and "num_workers option should be non-negative" in doc["error"]["message"]
    doc = run_document("class S(torch.utils.data.IterableDataset):\n    def __iter__(self):\n        return iter([1])\n"
                       "l = torch.utils.data.DataLoader(S(), num_workers=2)\n", "f.py", walls=True)
    assert doc["error"]["kind"] == "unsupported" and doc["error"]["line"] == 4  # as gradcli: workers would copy it
    from gradcli.app.oracle_walls import _substitute

    import torch

    sub = _substitute(torch.utils.data.DataLoader)
    assert issubclass(sub, torch.utils.data.DataLoader) and sub.__qualname__ == "DataLoader"
    assert sub.__module__ == "torch.utils.data.dataloader" and _substitute(torch.ones) is torch.ones


def test_a_write_past_the_file_size_limit_is_a_stop_of_the_walls():
    import errno

    from gradcli.app.oracle_walls import Walls

    w = Walls("f.py")
    try:
        exec(compile("def f():\n    raise OSError(errno.EFBIG, 'File too large')\nf()\n", "f.py", "exec"),
             {"errno": errno})
    except OSError as e:
        w.note_os_error(e)
    w.note_os_error(OSError(errno.ENOENT, "No such file"))  # PyTorch's own failure: no stop
    assert w.refused == [{"line": 2, "what": "writing a file",
                          "message": "the process may not write files (file size limit 0): [Errno 27] File too large"}]


def test_walls_change_no_result_with_options():
    src = "y = x * w\nz = y.sum()\n"
    options = RunOptions(sets=[("x", "[1.0, 2.0]"), ("w", "torch.tensor([3.0, 4.0]).reshape(2)")],
                         requires_grad=["x"], retain_grad=["y"], backward="z", gradient="torch.ones(1).sum()")
    assert run_document(src, "f.py", options, walls=True) == run_document(src, "f.py", options)


def test_forked_and_fresh_interpreter_children_agree_and_are_confined():
    """The machine branch of run_isolated (fork or a fresh interpreter), both behind the walls."""
    src = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\nprint(x.grad)\n"
    docs = []
    for fork in ([True, False] if hasattr(os, "fork") else [False]):
        report: dict = {}
        docs.append(run_isolated(src, "f.py", RunOptions(), timeout=120, fork=fork, walls=True, report=report))
        assert report["refused"] == [] and report["left"] == []
        proc = report["process"]
        assert proc["audit"] is True and proc["network"].startswith(("isolated", "not isolated"))
        if proc["limits"] != "none: no resource module":
            assert proc["limits"]["RLIMIT_FSIZE"] == 0
    assert all(d == docs[0] for d in docs) and docs[0]["stdout"] == "tensor([2., 4.])\n"


def test_oracle_command_line_walls(tmp_path):
    import subprocess

    f = tmp_path / "save.py"
    f.write_text(VIA + "x = torch.ones(1)\nvia(torch).save(x, 'out.bin')\n")
    proc = subprocess.run([sys.executable, "-m", "gradcli.app.oracle", str(f), "--walls"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["kind"] == "unsupported"  # as gradcli: PyTorch API it lacks
    assert "the walls stopped the file: line 4" in proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["save.py"]


def test_optimizers_run_in_a_fresh_confined_interpreter(tmp_path):
    """torch.optim's first param group imports torch._dynamo, which makes its compile-cache folder: in a fresh
    process (as ``gradcli compare`` starts one) that is the child's fresh folder, and nothing is written."""
    import subprocess

    f = tmp_path / "adam.py"
    f.write_text("m = torch.nn.Linear(2, 1)\nopt = torch.optim.Adam(m.parameters(), lr=0.1)\n"
                 "loss = m(torch.ones(1, 2)).sum()\nloss.backward()\nopt.step()\nprint(opt.param_groups[0]['lr'])\n")
    env = {k: v for k, v in os.environ.items() if k != "TORCHINDUCTOR_CACHE_DIR"}
    proc = subprocess.run([sys.executable, "-m", "gradcli.app.oracle", str(f), "--walls"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["ok"], (doc["error"], proc.stderr[-2000:])
    assert doc["stdout"] == "0.1\n" and sorted(os.listdir(tmp_path)) == ["adam.py"]


# --- 4. the sandbox's escape attempts, under real PyTorch --------------------------------------------------
def _sandbox_attempts() -> tuple:
    path = Path(__file__).resolve().parents[1] / "lang" / "test_sandbox.py"
    spec = importlib.util.spec_from_file_location("_gradcli_sandbox_attempts", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod.ATTEMPTS, mod.HARMLESS, mod.AFTER


ATTEMPTS, HARMLESS, AFTER = _sandbox_attempts()
#: attempts that are harmless Python, which PyTorch runs to the end (gradcli refuses them as outside its
#: language): %-formatting, a caught RecursionError, a long format width, legacy constructors
RUN_UNDER_PYTORCH = {"percent_format", "percent_mapping", "except_catches_recursion", "fstring_nested_width",
                     "torch_tensor_type_call", "function_base_three_args", "decorator_builtin_runtime",
                     "decorator_list_append",
                     # a ctx attribute gradcli keeps read-only for its own engine; PyTorch's C++ never reads it
                     "ctx_apply_overwrite", "ctx_num_outputs_blowup",
                     # a file's own class using a `_` name PyTorch's Module uses too: gradcli keeps its engine's
                     # `_` names out of reach (and the static check passes the file's own names), PyTorch runs them
                     "module_private_assigned_after_init", "module_private_assigned_before_init",
                     "module_private_engine_class_attr", "module_private_engine_method",
                     "module_private_method_shadow", "module_setattr_private"}
#: exhaustion attempts test gradcli's own limits; under PyTorch the rlimits and the timeout end them.
#: These three stand for the rest (a loop, an allocation, a C stack overflow); the others would each
#: wait for the timeout and add nothing.  The names only choose what is skipped to save time: whether a
#: PyTorch side that ran out of time or memory is right is decided by gradcli's own verdict (kind ``limit``)
EXHAUSTION_KEPT = {"infinite_loop", "huge_list", "nested_tuple_hash"}
_EXHAUSTION = ("huge", "infinite", "recursion", "nested_", "exponential", "range_contains", "except_catches_limit",
               "finally_swallows_limit", "c_loop")


def _gradcli_stops_at_a_limit(src: str) -> bool:
    from gradcli.lang.run import run_file

    r = run_file(src.encode(), "test.py", RunOptions())
    return r.error is not None and r.error.kind == "limit"


def _attempt_params():
    for name in sorted(ATTEMPTS):
        marks = ()
        if any(k in name for k in _EXHAUSTION) and name not in EXHAUSTION_KEPT:
            marks = (pytest.mark.skip(reason="an exhaustion attempt of gradcli's limits: under PyTorch the "
                                             "rlimits and the timeout end it, as the kept ones show"),)
        yield pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", list(_attempt_params()))
def test_sandbox_attempt_under_pytorch(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sentinel = tmp_path / "SENTINEL"
    src = ATTEMPTS[name].replace("SENTINEL", str(sentinel)) + AFTER
    report: dict = {}
    try:
        # a short timeout ends an exhaustion attempt; the others get time for PyTorch's lazy imports on a busy
        # machine (nn.BatchNorm1d's first call imports torch._dynamo: seconds)
        timeout = 6 if any(k in name for k in _EXHAUSTION) else 60
        doc = run_isolated(src, "test.py", RunOptions(), timeout=timeout, walls=True, report=report)
    except OracleFailure as e:  # killed at its timeout or limit, or its C stack overflowed: nothing came back
        assert any(k in name for k in _EXHAUSTION) or _gradcli_stops_at_a_limit(src), e
        doc = None
    assert not sentinel.exists() and os.listdir(tmp_path) == []
    if doc is None:
        return
    assert report.get("left", []) == []
    if name in RUN_UNDER_PYTORCH:
        assert doc["ok"], doc["error"]
        return
    assert not doc["ok"] and doc["error"]["kind"] in KINDS, doc["error"]
    assert "did not stop the run" not in doc["stdout"]


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_sandbox_harmless_under_pytorch(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = HARMLESS[name].replace("SENTINEL", str(tmp_path / "SENTINEL"))
    report: dict = {}
    run_isolated(src, "test.py", RunOptions(), timeout=30, walls=True, report=report)
    assert os.listdir(tmp_path) == [] and report["left"] == []


def test_a_new_tensor_attribute_runs_on_both_sides(runner, tmp_path, monkeypatch, server):
    f, mark, before = _scene(tmp_path, "x = torch.ones(2)\nx.save = 1\nx.label = 'x'\nprint(x.save, x.label)\n",
                             server, monkeypatch)
    result, doc = _compare_json(runner, f)
    assert doc["identical"] and doc["pytorch"]["stdout"] == "1 x\n" and result.exit_code == 0, doc
