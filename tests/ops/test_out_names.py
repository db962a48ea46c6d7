"""torch.X(..., out=...) is accepted exactly where PyTorch 2.13's binding takes ``out=``
(tests/ops/data/out_names.json, recorded by tests/ops/record_out_names.py from live PyTorch); behaviour is in the
conformance cases tests/conformance/out_kwarg/."""

from __future__ import annotations

import json
import os

import pytest

from gradcli.api import torch_namespace
from gradcli.errors import ArgumentTypeError
from gradcli.ops.out import OUT_OPS, RULES

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "data", "out_names.json"), encoding="utf-8") as _f:
    TAKES_OUT: dict = json.load(_f)["takes_out"]


def test_out_ops_are_pytorchs():
    recorded = {n for n, v in TAKES_OUT.items() if v}
    assert OUT_OPS == recorded
    assert set(RULES) <= OUT_OPS


@pytest.mark.parametrize("name", sorted(n for n, v in TAKES_OUT.items() if not v))
def test_no_out_where_pytorch_has_none(name):
    fn = getattr(torch_namespace(), name, None)
    if fn is None:
        pytest.skip(f"torch.{name} is not in gradcli's namespace under that name")
    ns = torch_namespace()
    o = ns.empty(0)
    with pytest.raises((ArgumentTypeError, TypeError)):
        fn(ns.ones(2, 3), out=o)
    assert o._version[0] == 0  # nothing written
