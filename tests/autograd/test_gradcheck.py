"""Gradcheck against PyTorch 2.13: recorded snippets (data/gradcheck_cases.json, see record_autograd_extras.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import record_autograd_extras as rec

CASES = rec.load("gradcheck")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    got = rec.run_gradcli(case["src"])
    diffs = rec.compare(got, case)
    assert not diffs, "\n".join(diffs)


# --- numeric_vs_analytic (the library side of `gradcli check`): mathematics ---------------------------

import math

from gradcli.api import make_globals
from gradcli.autograd.gradcheck import numeric_vs_analytic

torch = make_globals()["torch"]


def _f64(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def test_correct_gradient_is_ok_with_tiny_errors():
    x = _f64([0.1, 0.5, -0.3])
    [(abs_err, rel_err, ok)] = numeric_vs_analytic(lambda t: (t.exp() * t.sin()).sum(), (x,))
    assert ok and abs_err < 1e-8 and rel_err < 1e-8
    assert x.grad is None  # like autograd.grad: .grad untouched


def test_wrong_backward_reports_the_largest_errors():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * a

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = _f64([0.1, 0.5, -0.3])
    [check] = numeric_vs_analytic(Bad.apply, (x,))
    # analytical J = 3 I, numerical J = diag(2x): worst element |3 - (-0.6)| = 3.6, relative 3.6 / 3
    assert not check.ok
    assert math.isclose(check.max_abs_error, 3.6, rel_tol=1e-6)
    assert math.isclose(check.max_rel_error, 1.2, rel_tol=1e-6)


def test_one_entry_per_input_requiring_grad_and_unused_input_is_zero():
    a = _f64([1.0, 2.0])
    k = torch.tensor(3.0, dtype=torch.float64)  # does not require grad: no entry
    b = _f64([0.5])
    res = numeric_vs_analytic(lambda p, c, q: (p * c).sum(), (a, k, b))
    assert len(res) == 2
    assert res[0].ok and res[0].max_abs_error < 1e-8
    assert res[1].ok and res[1].max_abs_error == 0.0 and res[1].max_rel_error == 0.0


def test_tuple_outputs_take_the_worst_block():
    x = _f64([0.3, -0.7])
    [check] = numeric_vs_analytic(lambda t: (t * 2, (t ** 3).sum()), (x,))
    assert check.ok and check.max_abs_error < 1e-8
