"""``grad_fn._saved_*`` / ``_raw_saved_*`` against PyTorch 2.13 (SPEC §2b; autograd/saved_fields.py).

Every recorded op case (tests/autograd/data/saved_fields.json, from record_saved_fields.py) runs on gradcli's
``torch`` namespace; for each node of its graph, each attribute gradcli implements must equal what PyTorch
gave: tensors (shape, dtype, requires_grad, values within SPEC tolerances), ints (negative ones as PyTorch's
uint64), tuples, floats, bools, None, and the SavedTensor objects of ``_raw_saved_*``.  The attributes gradcli
does not implement must be an ``unsupported`` error naming them, and a name PyTorch's class lacks an
AttributeError.
"""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from saved_fields_harness import graph_nodes, observe  # noqa: E402

from gradcli.api import torch_namespace  # noqa: E402
from gradcli.autograd.saved_fields import SPECS, read  # noqa: E402
from gradcli.autograd.saved_names import SAVED_NAMES  # noqa: E402
from gradcli.errors import GradcliError  # noqa: E402

with open(os.path.join(HERE, "data", "saved_fields.json"), encoding="utf-8") as _f:
    CASES = json.load(_f)["cases"]

TOL = {"float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12), "float16": (1e-3, 1e-3)}


def _implemented(node: str, field: str) -> bool:
    base = "_saved_" + field[len("_raw_saved_"):] if field.startswith("_raw_saved_") else field
    return SPECS.get(node, {}).get(base) is not None


def _same(p, g, dtype="float32") -> bool:
    if isinstance(p, dict) and "tensor" in p:
        if not (isinstance(g, dict) and "tensor" in g):
            return False
        if (p["tensor"], p["dtype"], p["requires_grad"]) != (g["tensor"], g["dtype"], g["requires_grad"]):
            return False
        return all(_same(a, b, p["dtype"]) for a, b in zip(p["data"], g["data"])) and len(p["data"]) == len(g["data"])
    if isinstance(p, dict) and "float" in p:
        return isinstance(g, dict) and "float" in g and _same(p["float"], g["float"], "float64")
    if isinstance(p, dict):
        if not isinstance(g, dict) or set(p) != set(g):
            return False
        return all(_same(p[k], g[k], dtype) for k in p)
    if isinstance(p, list):
        return isinstance(g, list) and len(p) == len(g) and all(_same(a, b, dtype) for a, b in zip(p, g))
    if isinstance(p, float) and isinstance(g, (int, float)) and not isinstance(g, bool):
        rtol, atol = TOL.get(dtype, (0.0, 0.0))
        return math.isclose(p, g, rel_tol=rtol, abs_tol=atol) or p == g
    return type(p) is type(g) and p == g


def _gradcli_nodes(case: dict) -> list:
    T = torch_namespace()
    env = {"torch": T, "F": T.nn.functional}
    exec(case["code"], env)  # noqa: S102 - test code written by us
    return graph_nodes(env.get(case["out"]))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_saved_fields_match_pytorch(case):
    nodes = _gradcli_nodes(case)
    assert [type(n).__name__ for n in nodes] == [r["node"] for r in case["nodes"]]
    T = torch_namespace()
    bad = []
    for node, rec in zip(nodes, case["nodes"]):
        for field, want in rec["fields"].items():
            if not _implemented(rec["node"], field):
                continue
            got = observe(node, field, T, read)
            if not _same(want, got):
                bad.append(f"{rec['node']}.{field}: gradcli {got}, PyTorch {want}")
    assert not bad, "\n".join(bad)


def test_unimplemented_names_are_unsupported_and_others_missing():
    T = torch_namespace()
    x = T.tensor([1.0, 2.0], requires_grad=True)
    node = (x * x).grad_fn
    with pytest.raises(GradcliError) as ei:
        read(node, "_saved_nothing")
    assert ei.value.kind == "runtime" and ei.value.torch_type is AttributeError
    missing = [(n, f) for n, fields in SAVED_NAMES.items() for f in fields
               if f.startswith("_saved_") and not _implemented(n, f)]
    for n, f in missing:
        assert SPECS.get(n, {}).get(f) is None


def test_every_recorded_class_is_known():
    """The recorded attribute names are the generated table's (saved_names.py is current)."""
    for case in CASES:
        for rec in case["nodes"]:
            assert set(rec["fields"]) <= set(SAVED_NAMES[rec["node"]])
