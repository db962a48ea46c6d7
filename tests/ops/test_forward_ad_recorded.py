"""Replay PyTorch's forward-mode AD over the recorded op cases (tests/ops/data/forward_ad_cases.json).

For every recorded op case with an input, gradcli must give the result the same tangent as PyTorch when the
inputs are dual (torch.autograd.forward_ad: SPEC §2b): the same values, requires_grad and grad_fn of the
tangent, for a primal requiring grad and for a detached one.  Re-record with
``python tests/ops/record_forward_ad.py`` (needs PyTorch 2.13).
"""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from forward_ad_harness import run_dual
from test_ops_recorded import CASES as OP_CASES
from test_ops_recorded import gradcli_error_kind

from gradcli.api import torch_namespace

with open(os.path.join(HERE, "data", "forward_ad_cases.json"), encoding="utf-8") as _f:
    EXPECT = {c["id"]: c for c in json.load(_f)["cases"]}

CASES = [c for c in OP_CASES if c["id"] in EXPECT]

# cases gradcli does not match yet (id -> reason); each is expected to fail (strict)
XFAIL: dict = {
    'linear/noncontig3d:grad': "the tangent's grad_fn: PyTorch's forward formula ends in another op (values agree)",
    'linear/noncontig3d:plain': "the tangent's grad_fn: PyTorch's forward formula ends in another op (values agree)",
    'linear/bias0d_1d:grad': "the tangent's grad_fn: PyTorch's forward formula ends in another op (values agree)",
    'max/full_nan:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'max/full_nan:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'norm/zero_vector_p3:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'norm/zero_vector_p3:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'std/constant:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'std/constant:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/mean:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/mean/weight:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/sum:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/sum/weight:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/none:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'bce/none/weight:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'ce/all_ignored:grad': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'ce/all_ignored:plain': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'misc/atan2_zero:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'misc/atan2_zero:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'empty/logsumexp:grad': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'empty/logsumexp:plain': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'empty/mse:grad': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'empty/mse:plain': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'empty/ce:grad': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'empty/ce:plain': "an empty reduction: PyTorch's forward formula gives nan (0/0), the transposed backward 0",
    'ver/cumsum_input_modified:grad': "the tangent's grad_fn: PyTorch's forward formula ends in another op (values agree)",
    'binary/pow/zero_base:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'binary/pow/zero_base:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'maxmin/maximum/nan:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'maxmin/maximum/nan:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'maxmin/minimum/nan:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'maxmin/minimum/nan:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'setitem/leaf_err:plain': "an in-place write under no_grad (or one refused) leaves the tangent unchanged in gradcli; PyTorch writes the value's (zero) tangent",
    'setitem/nograd_leaf:grad': "an in-place write under no_grad (or one refused) leaves the tangent unchanged in gradcli; PyTorch writes the value's (zero) tangent",
    'setitem/nograd_leaf:plain': "an in-place write under no_grad (or one refused) leaves the tangent unchanged in gradcli; PyTorch writes the value's (zero) tangent",
    'augassign/alias_identity:grad': 'h *= h (the same tensor as both operands): the tangent is computed from the already-updated tangent',
    'augassign/alias_identity:plain': 'h *= h (the same tensor as both operands): the tangent is computed from the already-updated tangent',
    'clamp/tensor_bounds_equal:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'clamp/tensor_bounds_equal:plain': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'unary/relu/inf_grad_masked:grad': "a singular point (nan, tie, zero, bce at 0/1) where PyTorch's forward formula is not the transpose of its backward one",
    'backward_op/hardtanh:grad': "PyTorch's hardtanh_backward tangent has no history; gradcli's is differentiable",
    'scatter/torch_fn:grad': "a repeated index: PyTorch's forward formula keeps the last src tangent, the backward gathers every one",
    'scatter/torch_fn:plain': "a repeated index: PyTorch's forward formula keeps the last src tangent, the backward gathers every one",
}


def _close(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-5)
    if a == "zero" or b == "zero":
        other = b if a == "zero" else a
        return other == "zero" or _all_zero(other)
    return a == b


def _all_zero(x) -> bool:
    if isinstance(x, list):
        return all(_all_zero(v) for v in x)
    return x == 0


@pytest.fixture(scope="module")
def torch_ns():
    t = torch_namespace()
    return t, t.nn.functional


def _check(got: dict, exp: dict) -> list:
    bad = []
    if got.get("ok") != exp.get("ok") or got.get("kind") != exp.get("kind"):
        return [f"outcome: gradcli {got.get('ok')} {got.get('kind')}, torch {exp.get('ok')} {exp.get('kind')}"]
    if not exp.get("ok"):
        return bad
    if not _close(got["value"], exp["value"]):
        bad.append("primal value")
    if (got["tangent"] is None) != (exp["tangent"] is None):
        bad.append(f"tangent: gradcli {got['tangent']}, torch {exp['tangent']}")
    elif exp["tangent"] is not None:
        if not _close(got["tangent"], exp["tangent"]):
            bad.append(f"tangent values: gradcli {got['tangent']}, torch {exp['tangent']}")
        for k in ("tangent_requires_grad", "tangent_grad_fn"):
            if got.get(k) != exp.get(k):
                bad.append(f"{k}: gradcli {got.get(k)}, torch {exp.get(k)}")
    return bad


@pytest.mark.parametrize("variant", ["grad", "plain"])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_forward_ad_case(case, variant, torch_ns):
    exp = EXPECT[case["id"]].get(variant)
    if exp is None:
        pytest.skip("no input to make dual")
    key = f"{case['id']}:{variant}"
    torch, F = torch_ns
    got = run_dual(case, variant, torch, F, gradcli_error_kind)
    bad = _check(got, exp)
    if key in XFAIL:  # strict: a known difference that no longer shows must leave the list
        assert bad, f"{key} now matches PyTorch: remove it from XFAIL"
        pytest.xfail(XFAIL[key])
    assert not bad, "; ".join(bad)
