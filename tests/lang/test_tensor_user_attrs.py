"""A name a file sets on a tensor is that tensor's own attribute, as on PyTorch's Tensor (a Python class with
a ``__dict__``): ``x.label = 'x'``, the typo ``x.require_grad = True`` (which changes nothing about autograd).
Checked against live PyTorch 2.13: the printed text, and the error's kind and line where PyTorch fails. Names
starting with ``_`` stay refused (the sandbox).  Known difference: PyTorch lets ``x.sum = 5`` shadow a method on
one tensor; gradcli keeps the Tensor API's names read-only (a runtime error), so an attribute read stays one
lookup on the hot path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))  # differential.py

from gradcli.app.oracle import torch_available
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

needs_torch = pytest.mark.skipif(not torch_available(), reason="PyTorch is not installed: pip install torch==2.13.0")

PROGRAMS = [
    "x = torch.tensor([1.0, 2.0])\nx.require_grad = True\nprint(x.require_grad, x.requires_grad)\n",
    "x = torch.ones(2)\nx.label = 'x'\nprint(x.label, hasattr(x, 'label'), getattr(x, 'label', None))\n",
    "x = torch.ones(2)\nx.label = 'x'\ny = x * 2\nprint(hasattr(y, 'label'), getattr(y, 'label', 'none'))\n",
    "x = torch.ones(2)\nx.label = 'x'\ndel x.label\nprint(hasattr(x, 'label'))\nprint(x.label)\n",
    "x = torch.ones(2)\nsetattr(x, 'n', 3)\nx.n += 1\nprint(x.n)\n",
    "x = torch.ones(2)\ndel x.label\n",
    "x = torch.ones(2)\nv = x[0:1]\nx.tag = 1\nprint(hasattr(v, 'tag'))\n",
    "x = torch.ones(2, requires_grad=True)\nx.note = [1]\n(x * 2).sum().backward()\nprint(x.note, x.grad)\n",
    "x = torch.ones(2)\nx.shape = (1, 2)\n",
]


@needs_torch
@pytest.mark.parametrize("src", PROGRAMS)
def test_as_pytorch(src):
    from differential import gradcli_document, pytorch_document

    g, p = gradcli_document(src, RunOptions()), pytorch_document(src, RunOptions())
    assert g["stdout"] == p["stdout"]
    if p["error"] is None:
        assert g["error"] is None, g["error"]
    else:
        assert g["error"] is not None and (g["error"]["kind"], g["error"]["line"]) == \
            (p["error"]["kind"], p["error"]["line"]), (g["error"], p["error"])


@pytest.mark.parametrize("src", [
    "x = torch.ones(2)\nx._secret = 1\n",
    "x = torch.ones(2)\nsetattr(x, '_secret', 1)\n",
    "x = torch.ones(2)\nx.a = 1\nprint(x.__dict__)\n",
])
def test_private_names_stay_refused(src):
    r = run_file(src, "case.py", RunOptions())
    assert r.error is not None and r.error.kind == "unsupported", r.error

