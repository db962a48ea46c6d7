"""format_tensor must reproduce PyTorch 2.13's str(t) byte for byte.

The expected strings were recorded from real PyTorch by record_printing.py
(data/printing_cases.json); this test needs only numpy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

try:
    from gradcli.autograd.printing import format_tensor
except ImportError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    from gradcli.autograd.printing import format_tensor

DATA = Path(__file__).with_name("data") / "printing_cases.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]

_NP = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "int64": np.int64,
    "int32": np.int32,
    "bool": np.bool_,
}
_NONFINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def _decode(v):
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if isinstance(v, str):
        return _NONFINITE[v]
    return v


def _array(case: dict) -> np.ndarray:
    # Go through float64 for floats: every recorded float32/float16 value is exact there.
    values = _decode(case["values"])
    dtype = _NP[case["dtype"]]
    via = np.float64 if case["dtype"].startswith("float") else dtype
    return np.array(values, dtype=via).reshape(case["shape"]).astype(dtype)


def test_enough_varied_cases():
    assert len(CASES) >= 80
    assert {c["dtype"] for c in CASES} == set(_NP)
    assert {len(c["shape"]) for c in CASES} >= {0, 1, 2, 3, 4}
    assert any("..." in c["expected"] for c in CASES)
    assert any(c["default_dtype"] == "float64" for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    got = format_tensor(
        _array(case),
        case["dtype"],
        default_dtype=case["default_dtype"],
        requires_grad=case["requires_grad"],
        grad_fn=case["grad_fn"],
        is_leaf=case["is_leaf"],
    )
    assert got == case["expected"]


def test_float32_values_rounded_from_float64_input():
    # A float32 tensor holds float32 values even if handed float64 data.
    assert format_tensor(np.array([0.1, 2.5]), "float32") == "tensor([0.1000, 2.5000])"
    assert format_tensor(np.float32(0.1), "float32") == "tensor(0.1000)"


def test_unknown_dtype_rejected():
    with pytest.raises(ValueError):
        format_tensor(np.zeros(2), "complex64")
