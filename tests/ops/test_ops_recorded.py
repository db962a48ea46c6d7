"""Replay the PyTorch-recorded op cases (tests/ops/data/ops_cases.json, and ops_cases_elementwise.json for the
elementwise / in-place / creation groups) against gradcli, without PyTorch.

Each case must match exactly in: success or error kind, warning kinds, shape, dtype, requires_grad, grad_fn
name, the whole grad_fn graph, indices, the repr of (values, indices) results, whether a second backward
without retain_graph fails, the grad_fn names of create_graph gradients; and within SPEC tolerances (float32 rtol 1e-5 / atol 1e-6, float64
rtol 1e-10 / atol 1e-12) in values, gradients and (``double`` cases) second derivatives.

Re-record with ``python tests/ops/record_ops.py`` and ``python tests/ops/record_ops_elementwise.py`` (need
PyTorch 2.13).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ops_harness import run_case

from gradcli import errors
from gradcli.api import torch_namespace

DATA = [os.path.join(HERE, "data", name) for name in ("ops_cases.json", "ops_cases_elementwise.json",
                                                        "ops_cases_frequency.json")]

CASES: list = []
for _path in DATA:
    with open(_path, encoding="utf-8") as _f:
        CASES += json.load(_f)["cases"]

# recorded cases gradcli does not match yet (id -> reason); each is expected to fail (strict)
XFAIL: dict = {
}

# create_graph gradients whose grad_fn name differs from PyTorch's (values agree):
KNOWN_GRAD_FN_DIFFERENCES = {
    "cumprod/zeros": "PyTorch builds the gradient in place (CopySlices); gradcli with cat (CatBackward0)",
}

TOL = {"float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12), "float16": (1e-3, 1e-3)}


def gradcli_error_kind(exc: BaseException) -> str:
    if isinstance(exc, errors.GradcliError):
        return exc.kind
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    return f"internal:{type(exc).__name__}: {exc}"


@contextlib.contextmanager
def gradcli_warnings():
    kinds: list = []
    old = errors.set_warning_sink(lambda kind, message: kinds.append(kind))
    try:
        yield kinds
    finally:
        errors.set_warning_sink(old)


def _arr(v) -> np.ndarray:
    def conv(x):
        if isinstance(x, list):
            return [conv(y) for y in x]
        if x == "nan":
            return math.nan
        if x == "inf":
            return math.inf
        if x == "-inf":
            return -math.inf
        return x

    return np.asarray(conv(v), dtype=np.float64)


def assert_close(got, exp, dtype: str, what: str) -> None:
    g, e = _arr(got), _arr(exp)
    assert g.shape == e.shape, f"{what}: shape {g.shape} != {e.shape}"
    rtol, atol = TOL.get(dtype, (0.0, 0.0))
    if not np.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
        bad = ~np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
        raise AssertionError(f"{what} differs ({int(bad.sum())} of {bad.size}): got {g[bad][:5]} expected "
                             f"{e[bad][:5]}\n got={got}\n exp={exp}")


@pytest.fixture(scope="module")
def torch_ns():
    t = torch_namespace()
    return t, t.nn.functional


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=XFAIL[c["id"]], strict=True))
                                  if c["id"] in XFAIL else c for c in CASES], ids=[c["id"] for c in CASES])
def test_recorded_case(case, torch_ns):
    torch, F = torch_ns
    exp = case["expect"]
    got = run_case(case, torch, F, gradcli_error_kind, gradcli_warnings)
    assert got["ok"] == exp["ok"], f"ok: got {got} expected {exp}"
    assert got["warnings"] == exp["warnings"], "warnings"
    if not exp["ok"]:
        assert got["kind"] == exp["kind"], "error kind"
        return
    for key in ("shape", "dtype", "requires_grad", "grad_fn", "graph"):
        assert got[key] == exp[key], key
    if exp["dtype"] in TOL:
        assert_close(got["value"], exp["value"], exp["dtype"], "value")
    else:
        assert got["value"] == exp["value"], "value"
    if "indices" in exp:
        assert got.get("indices") == exp["indices"], "indices"
    for key in ("repr", "twice"):
        if key in exp:
            assert got.get(key) == exp[key], key
    for key in ("backward_error", "grads2_error"):
        assert got.get(key) == exp.get(key), key
    if "grads" in exp:
        assert got.get("grad_dtypes") == exp["grad_dtypes"], "grad dtypes"
        for i, (g, e) in enumerate(zip(got["grads"], exp["grads"])):
            assert (g is None) == (e is None), f"grad {i} None-ness: got {g} expected {e}"
            if e is not None:
                assert_close(g, e, exp["grad_dtypes"][i], f"grad {i} ({case['inputs'][i]})")
    if "grad_fns" in exp and case["id"] not in KNOWN_GRAD_FN_DIFFERENCES:
        assert got.get("grad_fns") == exp["grad_fns"], "grad_fn of the create_graph gradients"
    if "grads2" in exp:
        g2, e2 = got.get("grads2"), exp["grads2"]
        assert (g2 is None) == (e2 is None), f"second-order grads: got {g2} expected {e2}"
        if e2 is not None:
            for i, (g, e) in enumerate(zip(g2, e2)):
                if e is None:
                    assert g is None or np.allclose(_arr(g), 0), f"second-order grad {i} should be None"
                    continue
                assert g is not None, f"second-order grad {i} missing"
                assert_close(g, e, exp["grad_dtypes"][i] or "float64", f"second-order grad {i}")
