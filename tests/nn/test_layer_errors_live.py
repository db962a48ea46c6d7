"""Bad arguments of the layers of issue 17 part B (conv, pooling, dropout, embedding, normalization) against
live PyTorch 2.13: the error's kind and line always, and its message where gradcli words it as PyTorch does.
A value of the wrong type reaching PyTorch's Python code (``nn.Dropout('x')``: ``p < 0``) is Python's
TypeError there, and a TypeError of kind ``type`` here -- never an internal error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))  # differential.py

from gradcli.app.oracle import torch_available
from gradcli.lang.result import RunOptions

pytestmark = [pytest.mark.skipif(not torch_available(), reason="PyTorch is not installed: pip install torch==2.13.0"),
              pytest.mark.torch]

#: same kind, line and message
SAME_MESSAGE = [
    "F.dropout(torch.ones(3), 'a')\n",
    "F.dropout(torch.ones(3), None)\n",
    "nn.Dropout('x')\n",
    "F.dropout(torch.ones(3), 0.5, training='yes')\n",
    "nn.Dropout2d()(torch.ones(3))\n",
    "F.dropout1d([1])\n",
    "F.embedding(torch.tensor([0]), torch.ones(2, 2), padding_idx='a')\n",
    "F.embedding([0], torch.ones(2, 2))\n",
    "F.embedding(torch.tensor([0]), torch.ones(2, 2), max_norm='a')\n",
    "nn.Embedding(-1, 2)\n",
    "nn.Embedding.from_pretrained([[1.0]])\n",
    "F.layer_norm(torch.ones(2, 3), (3,), eps='a')\n",
    "F.layer_norm(torch.ones(2, 3), (3,), 'w')\n",
    "nn.LayerNorm(3)(torch.ones(2, 3, dtype=torch.float64))\n",
    "nn.BatchNorm1d(3)(torch.ones(2, 3, dtype=torch.float64))\n",
    "nn.BatchNorm1d(3, dtype=torch.float64)(torch.ones(2, 3))\n",
    "nn.BatchNorm1d(3, momentum='x')(torch.randn(4, 3))\n",
    "F.batch_norm(torch.randn(4, 3), torch.zeros(3), torch.ones(3), training=True, momentum=None)\n",
    "F.batch_norm(torch.randn(4, 3).long(), torch.zeros(3), torch.ones(3))\n",
    "F.batch_norm(torch.randn(4, 3), [0, 0, 0], torch.ones(3))\n",
    "nn.Conv2d('a', 2, 3)\n",
    "nn.Conv2d(1, 2, 3, groups=0)\n",
    "nn.Conv2d(1.5, 2, 3)\n",
    "nn.Conv2d(1, 2, 3)(torch.ones(1, 2, 5, 5))\n",
    "nn.MaxPool2d('a')(torch.ones(1, 1, 4, 4))\n",
    "nn.MaxPool2d(2, stride='a')(torch.ones(1, 1, 4, 4))\n",
    "nn.MaxPool2d(2)([1])\n",
    "nn.AvgPool2d(2, divisor_override=0)(torch.ones(1, 1, 4, 4))\n",
    "F.max_pool2d(torch.ones(1, 1, 4, 4), 2, ceil_mode='x')\n",
    "F.pad(torch.ones(2, 3), (1, 1), mode='bogus')\n",
    "F.pad(torch.ones(2, 3), (1, 1), value='v')\n",
    "nn.RNN(3, 4)(torch.randn(5, 2, 2))\n",
    "nn.RNN(3, 4)(torch.randn(5, 2, 3), torch.randn(1, 3, 4))\n",
    "nn.RNN(3, 4)(torch.randn(5, 2, 3, 1))\n",
    "nn.GRU(3, 4)(torch.randn(5, 3), torch.randn(1, 2, 4))\n",
    "nn.LSTM(3, 4, dropout=1.5)\n",
    "nn.LSTM(3, 4)(torch.randn(5, 2, 3).double())\n",
    "nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.randn(1, 2, 4), torch.randn(1, 2, 5)))\n",
    "nn.RNN(3, 4, nonlinearity='sigmoid')\n",
    "nn.RNN(3, 0)\n",
    "nn.GRU(3, 4, batch_first=1)\n",
    "nn.GRUCell(3, 4)(torch.randn(2, 5))\n",
    "nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.randn(3, 4), torch.randn(3, 4)))\n",
    "nn.RNNCell(3, 4)(torch.randn(2, 3, 1))\n",
    "torch.lstm_cell(torch.randn(2, 3), (torch.randn(2, 4),), torch.randn(16, 3), torch.randn(16, 4))\n",
    "nn.Bilinear(2, 3, 4)(torch.randn(5, 2), torch.randn(4, 3))\n",
    "nn.Bilinear(2, 3, 4)(torch.randn(5, 2), torch.randn(5, 2))\n",
    "nn.Bilinear(0, 3, 4)\n",
    "F.bilinear(torch.randn(5, 2), torch.randn(5, 3), torch.randn(4, 2, 3), torch.randn(3))\n",
]

#: same kind and line; the message is worded otherwise (the argument parser's type names, creation's size
#: message, oneDNN's checks)
SAME_KIND = [
    "nn.Conv2d(1, 2, 'x')\n",
    "nn.Conv2d(1, 2, 3, stride='s')(torch.ones(1, 1, 5, 5))\n",
    "nn.Conv2d(1, 2, 3)([1])\n",
    "nn.Embedding(2.5, 2)\n",
    "nn.LayerNorm('a')\n",
    "nn.AvgPool2d(2, divisor_override='a')(torch.ones(1, 1, 4, 4))\n",
    "F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), stride=(1, 'a'))\n",
    "F.conv1d(torch.ones(1, 1, 3), torch.ones(1, 1, 2), dilation=0)\n",
    "nn.BatchNorm1d('a')\n",
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
