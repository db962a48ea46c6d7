"""``torch.X_(input)`` given more than ``input``: PyTorch 2.13's argument-parser TypeError, text for text, for
every in-place torch function whose binding takes only ``input`` (ops/inplace.py TORCH_UNARY_INPLACE),
checked against live PyTorch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import gradcli.ops  # noqa: F401
from gradcli.api import torch_namespace
from gradcli.app.oracle import INSTALL_HINT, torch_available
from gradcli.ops.inplace import TORCH_UNARY_INPLACE

needs_torch = pytest.mark.skipif(not torch_available(), reason=f"PyTorch is not installed: {INSTALL_HINT}")

CALLS = {"two": "f(x, 1)", "three": "f(x, 1, 2)", "keyword": "f(x, foo=1)", "none": "f()"}

_TORCH = r"""
import json, sys
import torch
out = {}
for name in json.loads(sys.argv[1]):
    f = getattr(torch, name)
    for key, call in json.loads(sys.argv[2]).items():
        x = torch.ones(2)
        try:
            eval(call)
            out[f"{name}-{key}"] = None
        except TypeError as e:
            out[f"{name}-{key}"] = str(e)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pytorch_messages():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    r = subprocess.run([sys.executable, "-c", _TORCH, json.dumps(sorted(TORCH_UNARY_INPLACE)), json.dumps(CALLS)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(TORCH_UNARY_INPLACE))
def test_extra_arguments_are_pytorchs_type_error(name, pytorch_messages):
    torch = torch_namespace()
    f = getattr(torch, name)
    for key, call in CALLS.items():
        x = torch.ones(2)
        want = pytorch_messages[f"{name}-{key}"]
        assert want is not None
        with pytest.raises(TypeError) as e:  # ArgumentTypeError: kind type once the run converts it
            eval(call, {"f": f, "x": x})
        assert str(e.value) == want, (name, key)
    x = torch.ones(2)
    assert f(x) is x and f(input=x) is x
