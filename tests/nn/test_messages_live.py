"""torch.nn's error messages and kinds, against live PyTorch 2.13 (each snippet runs in both)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))  # differential.py

from gradcli.app.oracle import torch_available
from gradcli.lang.result import RunOptions

pytestmark = [pytest.mark.skipif(not torch_available(), reason="PyTorch is not installed: pip install torch==2.13.0"),
              pytest.mark.torch]

SNIPPETS = [
    "m = nn.Linear(2, 2)\nm.weight = torch.ones(2, 2)\n",
    "m = nn.Linear(2, 2)\nm.foo\n",
    "class N(nn.Module):\n    def __init__(self):\n        self.fc = nn.Linear(2, 2)\nn = N()\n",
    "class N(nn.Module):\n    def __init__(self):\n        self.w = nn.Parameter(torch.ones(1))\nn = N()\n",
    "class N(nn.Module):\n    pass\nN()(torch.ones(1))\n",
    "m = nn.Linear(2, 2)\nm.train(1)\n",
    "m = nn.Sequential(nn.ReLU())\nm[3]\n",
    "m = nn.ModuleList([nn.ReLU()])\nm[-2]\n",
    "m = nn.Sequential(1)\n",
    "m = nn.Linear(2, 2)\nm.add_module('a.b', nn.ReLU())\n",
    "m = nn.Linear(2, 2)\nm.register_parameter('x', torch.ones(1))\n",
    "m = nn.Linear(2, 2)\nm.load_state_dict({'weight': torch.ones(2, 2)})\n",
    "m = nn.Linear(2, 2)\nm.load_state_dict({'weight': torch.ones(3, 2), 'bias': torch.ones(2), 'x': torch.ones(1)})\n",
    "m = nn.Linear(2, 2)\nm.load_state_dict([1])\n",
    "nn.init.xavier_uniform_(torch.ones(3))\n",
    "nn.init.kaiming_uniform_(torch.ones(2, 2), mode='fan_x')\n",
    "nn.init.calculate_gain('foo')\n",
    "nn.Hardtanh(1.0, -1.0)\n",
    "nn.HuberLoss(delta='a')\n",
    "m = nn.Linear(2, 2)\nm(torch.ones(3, 3))\n",
    "m = nn.Sequential(nn.Linear(2, 2))\nm + 1\n",
    "m = nn.Linear(2, 2)\nm.to(torch.long)\n",
    "m = nn.Linear(2, 2)\nh = m.register_full_backward_hook(print)\nm.register_backward_hook(print)\n",
    "m = nn.BCELoss()\ny = m(torch.ones(1) * 0.5, torch.ones(1), torch.ones(1))\n",
    "m = nn.Linear(2, 2)\ny = m()\n",
]


@pytest.mark.parametrize("src", SNIPPETS)
def test_message_and_kind_are_pytorchs(src):
    from differential import gradcli_document, pytorch_document

    src = "import torch.nn as nn\n" + src
    g = gradcli_document(src, RunOptions())
    p = pytorch_document(src, RunOptions())
    assert p["error"] is not None and g["error"] is not None, (g["error"], p["error"])
    assert (g["error"]["kind"], g["error"]["line"]) == (p["error"]["kind"], p["error"]["line"])
    assert g["error"]["message"] == p["error"]["message"]
