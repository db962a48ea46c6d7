"""Values of the wrong type handed to torch.nn.Module's methods, nn.utils, nn.init and Tensor's in-place
random fills, against live PyTorch 2.13: those are Python in PyTorch, so a bad value fails there with Python's
TypeError/AttributeError/ValueError and its message -- here the same kind, line and (mostly) message, never an
internal error (nn/module.python_errors_on_methods, generator methods included; errors.python_errors on
nn.utils and nn.init)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))  # differential.py

from gradcli.app.oracle import torch_available
from gradcli.lang.result import RunOptions

pytestmark = [pytest.mark.skipif(not torch_available(), reason="PyTorch is not installed: pip install torch==2.13.0"),
              pytest.mark.torch]

_M = "m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\n"

#: same kind, line and message
SAME_MESSAGE = [
    _M + "m.load_state_dict(5)\n",
    _M + "list(m.named_parameters(prefix=5))\n",
    _M + "list(m.named_modules(memo=5))\n",
    _M + "m.apply(5)\n",
    _M + "m.register_buffer(5, torch.ones(1))\n",
    _M + "m.register_parameter('a', 5)\n",
    _M + "m.requires_grad_(5)\n",
    _M + "m.train(5)\n",
    _M + "m.half(5)\n",
    _M + "list(m.named_children(5))\n",
    _M + "m[5]\n",
    _M + "m['a']\n",
    _M + "m.append(5)\n",
    _M + "m.insert('a', nn.ReLU())\n",
    _M + "m.extend(5)\n",
    "nn.ModuleList(5)\n",
    "nn.ModuleDict(5)\n",
    "nn.Linear(2, 2)(5)\n",
    "nn.MSELoss()(5, 5)\n",
    "nn.utils.clip_grad_norm_(5, 1.0)\n",
    "nn.utils.clip_grad_norm_([torch.ones(1)], 'a')\n",
    "nn.utils.clip_grad_norm_([torch.ones(1)], 1.0, norm_type='x')\n",
    "nn.utils.clip_grad_value_([torch.ones(1)], 'a')\n",
    "nn.utils.parameters_to_vector(5)\n",
    "nn.init.normal_(torch.ones(2), 'a')\n",
    "nn.init.normal_(torch.ones(2), 0.0, 'b')\n",
    "nn.init.uniform_(torch.ones(2), None)\n",
    "torch.ones(2).uniform_(0, [1])\n",
    "torch.ones(2).requires_grad_(1)\n",
    "torch.ones(2).requires_grad_(None)\n",
    _M + "m.to(5)\n",
    "torch.ones(2).to(device=0)\n",
    "nn.init.constant_(torch.ones(2), 'c')\n",
    "torch.ones(2).fill_([1])\n",
    "torch.arange(1j)\n",
    "torch.arange(0, 5, 1j)\n",
    "torch.optim.SGD([5], lr=0.1)\n",
    "torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1).add_param_group(5)\n",
    "torch.optim.lr_scheduler.StepLR(5, 1)\n",
    "list(torch.utils.data.DataLoader([1, 2], batch_size='a'))\n",
]

#: same kind and line; the message is worded otherwise (where in PyTorch's code the value first fails; an
#: AttributeError's message is prefixed with its class, errors.python_errors: kind runtime)
SAME_KIND = [
    _M + "m.load_state_dict({5: 1})\n",
    _M + "m.get_submodule(5)\n",
    _M + "m.get_parameter(5)\n",
    "torch.utils.data.TensorDataset(5)\n",
    _M + "m.state_dict(prefix=5)\n",
    "nn.Linear('a', 2)\n",
    "nn.init.kaiming_uniform_(5)\n",
]

#: PyTorch runs these without an error; so must gradcli
RUNS = [
    "x = torch.arange(0, 2 + 0j)\n",
    "x = torch.arange(0, 5, 1 + 0j)\n",
    _M + "m.zero_grad(5)\n",
]


def _documents(src: str):
    from differential import gradcli_document, pytorch_document

    src = "import torch.nn as nn\n" + src
    return gradcli_document(src, RunOptions()), pytorch_document(src, RunOptions())


@pytest.mark.parametrize("src", SAME_MESSAGE)
def test_message_and_kind_are_pytorchs(src):
    g, p = _documents(src)
    assert p["error"] is not None and g["error"] is not None, (g["error"], p["error"])
    assert (g["error"]["kind"], g["error"]["line"]) == (p["error"]["kind"], p["error"]["line"])
    assert g["error"]["message"] == p["error"]["message"]


@pytest.mark.parametrize("src", SAME_KIND)
def test_kind_and_line_are_pytorchs(src):
    g, p = _documents(src)
    assert p["error"] is not None and g["error"] is not None, (g["error"], p["error"])
    assert (g["error"]["kind"], g["error"]["line"]) == (p["error"]["kind"], p["error"]["line"])


@pytest.mark.parametrize("src", RUNS)
def test_runs_as_pytorch(src):
    g, p = _documents(src)
    assert p["error"] is None and g["error"] is None, (g["error"], p["error"])
    assert [t["data"] for t in g["tensors"]] == [t["data"] for t in p["tensors"]]
