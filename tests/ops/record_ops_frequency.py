"""Record what PyTorch does for the ops added from docs/OPS_FREQUENCY.md: tests/ops/data/ops_cases_frequency.json.

The in-place forms of the elementwise ops (methods and ``torch.X_`` functions), comparisons in place,
scatter / scatter_add (and in place), nan_to_num, torch.normal, Tensor.random_, set_ -- same case format as
record_ops.py / ops_harness.py.  ``test_ops_recorded.py`` replays these cases too, without PyTorch.

Needs PyTorch (2.13.0 CPU is the reference).  Run from the repository root:

    python tests/ops/record_ops_frequency.py

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (gradcli.host.pin_torch), as for the other recorders.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import record_ops as R  # case literals and the warning capture (R.CASES is not used here)
from ops_harness import run_case, torch_error_kind

OUT = os.path.join(HERE, "data", "ops_cases_frequency.json")

R._rng = np.random.default_rng(20261201)  # own stream
lit = R.lit

CASES: list = []


def case(cid: str, code: str, inputs=(), out: str = "y") -> None:
    CASES.append({"id": cid, "code": code.strip() + "\n", "out": out, "inputs": list(inputs), "double": True})


# --- unary in-place methods and their torch.X_ functions ---------------------------------------------------------
UNARY = {
    "acos": (-0.9, 0.9), "asin": (-0.9, 0.9), "atan": (-2, 2), "cosh": (-2, 2), "sinh": (-2, 2), "tan": (-1, 1),
    "erf": (-2, 2), "exp2": (-2, 2), "log10": (0.2, 3), "log2": (0.2, 3), "sgn": (-2, 2), "absolute": (-2, 2),
    "arccos": (-0.9, 0.9), "arcsin": (-0.9, 0.9), "arctan": (-2, 2), "negative": (-2, 2), "exp": (-2, 2),
    "log": (0.2, 3), "sqrt": (0.2, 3), "sin": (-3, 3), "cos": (-3, 3), "tanh": (-2, 2), "sigmoid": (-3, 3),
    "abs": (-2, 2), "neg": (-2, 2), "reciprocal": (0.3, 2), "rsqrt": (0.3, 2), "expm1": (-2, 2),
    "log1p": (-0.5, 2), "square": (-2, 2), "floor": (-2, 2), "ceil": (-2, 2), "round": (-2, 2),
    "trunc": (-2, 2), "frac": (-2, 2), "relu": (-2, 2),
}
TORCH_FN = {"acos", "asin", "atan", "cosh", "sinh", "tan", "erf", "exp2", "log10", "log2", "arccos", "arcsin",
            "arctan", "negative", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "abs", "neg", "reciprocal",
            "rsqrt", "expm1", "log1p", "square", "floor", "ceil", "round", "trunc", "frac", "relu"}
for op, (lo, hi) in UNARY.items():
    case(f"ip/{op}_/method", f"x = {lit((2, 3), lo=lo, hi=hi)}\nh = x * 1\nh.{op}_()\ny = h", "x")
    if op in TORCH_FN:
        case(f"ip/{op}_/torch", f"x = {lit((3,), 'float64', lo=lo, hi=hi)}\nh = x + 0\ny = torch.{op}_(h)", "x")
case("ip/sin_/view", f"x = {lit((2, 3))}\nh = x * 1\nh[0].sin_()\ny = h", "x")
case("ip/exp_/leaf_err", f"x = {lit((3,))}\nx.exp_()\ny = x", "x")
case("ip/torch_sin_/not_tensor", "y = torch.sin_(3.0)")
case("ip/round_/decimals", f"x = {lit((4,))}\nh = x * 3\nh.round_(decimals=1)\ny = h", "x")
case("ip/clamp_/torch", f"x = {lit((4,))}\nh = x * 1\ny = torch.clamp_(h, -0.5, 0.5)", "x")
case("ip/clip_/torch", f"x = {lit((4,))}\nh = x * 1\ny = torch.clip_(h, min=0.0)", "x")
case("ip/clamp_min_/torch", f"x = {lit((4,))}\nh = x * 1\ny = torch.clamp_min_(h, 0.0)", "x")
case("ip/zero_/torch", f"x = {lit((4,))}\nh = x * 1\ny = torch.zero_(h)", "x")
case("ip/fill_/torch", f"x = {lit((4,))}\nh = x * 1\ny = torch.fill_(h, 2.5)", "x")
case("ip/nan_to_num_/method", "x = torch.tensor([1.0, float('nan'), float('inf'), -float('inf')], requires_grad=True)\n"
     "h = x * 1\nh.nan_to_num_(0.5)\ny = h", "x")
case("ip/nan_to_num_/torch", "x = torch.tensor([1.0, float('nan'), float('inf')], requires_grad=True)\n"
     "h = x * 1\ny = torch.nan_to_num_(h, posinf=9.0)", "x")
# --- binary in-place ------------------------------------------------------------------------------------------
for op, kw in [("atan2", ""), ("arctan2", ""), ("hypot", ""), ("remainder", ""), ("true_divide", "")]:
    case(f"ip/{op}_/tensor", f"x = {lit((2, 3), lo=0.3)}\nb = {lit((3,), lo=0.3)}\nh = x * 1\nh.{op}_(b)\ny = h", "xb")
case("ip/remainder_/number", f"x = {lit((2, 3))}\nh = x * 1\nh.remainder_(0.7)\ny = h", "x")
case("ip/true_divide_/number", f"x = {lit((2, 3))}\nh = x * 1\nh.true_divide_(4)\ny = h", "x")
case("ip/floor_divide_/number", f"x = {lit((2, 3))}\nh = x * 1\nh.floor_divide_(0.5)\ny = h", "x")
case("ip/lerp_/number", f"x = {lit((3,))}\ne = {lit((3,))}\nh = x * 1\nh.lerp_(e, 0.25)\ny = h", "xe")
case("ip/lerp_/tensor_weight", f"x = {lit((3,))}\ne = {lit((3,))}\nw = {lit((3,), lo=0, hi=1)}\nh = x * 1\n"
     "h.lerp_(e, w)\ny = h", "xew")
case("ip/hypot_/bcast_err", f"x = {lit((3,))}\nb = {lit((2, 3))}\nh = x * 1\nh.hypot_(b)\ny = h", "xb")
# --- comparisons in place -------------------------------------------------------------------------------------
for op in ("eq", "ne", "lt", "le", "gt", "ge"):
    case(f"ip/{op}_/tensor", f"x = {lit((2, 3))}\nb = {lit((3,))}\nh = x * 1\nh.{op}_(b)\ny = h * 2", "xb")
    case(f"ip/{op}_/number", f"x = {lit((2, 3))}\nh = x * 1\nh.{op}_(0.0)\ny = h", "x")
case("ip/eq_/int", "h = torch.tensor([1, 2, 3])\nh.eq_(2)\ny = h")
case("ip/gt_/other_requires_grad", f"a = torch.tensor([0.5, -1.0, 2.0])\nb = {lit((3,))}\na.gt_(b)\ny = a", "b")
# --- cumsum_ / cumprod_ ----------------------------------------------------------------------------------------
case("ip/cumsum_", f"x = {lit((2, 3))}\nh = x * 1\nh.cumsum_(1)\ny = h", "x")
case("ip/cumprod_", f"x = {lit((2, 3))}\nh = x * 1\nh.cumprod_(0)\ny = h", "x")
# --- scatter family -------------------------------------------------------------------------------------------
case("scatter/src", f"x = {lit((2, 3))}\ns = {lit((1, 3))}\ny = x.scatter(0, torch.tensor([[1, 0, 1]]), s)", "xs")
case("scatter/value", f"x = {lit((2, 3))}\ny = x.scatter(1, torch.tensor([[2], [0]]), 7.5)", "x")
case("scatter/torch_fn", f"x = {lit((2, 3))}\ns = {lit((2, 2))}\ny = torch.scatter(x, 1, torch.tensor([[0, 2], [1, 1]]), s)",
     "xs")
case("scatter/src_larger", f"x = {lit((2, 3))}\ns = {lit((2, 3))}\ny = x.scatter(0, torch.tensor([[1, 0, 1]]), s)", "xs")
case("scatter/one_hot", "y = torch.zeros(3, 5).scatter_(1, torch.tensor([[0], [2], [4]]), 1.0)")
case("scatter/duplicates", "y = torch.zeros(3).scatter_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]))")
case("scatter_/nonleaf", f"x = {lit((2, 3))}\ns = {lit((1, 2))}\nh = x * 1\nh.scatter_(1, torch.tensor([[0, 1]]), s)\n"
     "y = h", "xs")
case("scatter_add", f"x = {lit((2, 3))}\ns = {lit((1, 3))}\ny = x.scatter_add(0, torch.tensor([[1, 0, 1]]), s)", "xs")
case("scatter_add/torch_fn", f"x = {lit((3,))}\ns = {lit((3,))}\ny = torch.scatter_add(x, 0, torch.tensor([0, 0, 2]), s)",
     "xs")
case("scatter_add_/nonleaf", f"x = {lit((2, 3))}\ns = {lit((1, 2))}\nh = x * 1\n"
     "h.scatter_add_(1, torch.tensor([[0, 0]]), s)\ny = h", "xs")
for cid, code in [
    ("float_index", "y = torch.zeros(2, 3).scatter(0, torch.tensor([[1.0, 0.0, 1.0]]), 1.0)"),
    ("oob", "y = torch.zeros(2, 3).scatter(0, torch.tensor([[5, 0, 0]]), 1.0)"),
    ("negative", "y = torch.zeros(2, 3).scatter(0, torch.tensor([[-1, 0, 0]]), 1.0)"),
    ("dims", "y = torch.zeros(2, 3).scatter(0, torch.tensor([1, 0]), 1.0)"),
    ("size", "y = torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 0, 1]]), torch.ones(2, 3))"),
    ("dtype", "y = torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), torch.ones(2, 3, dtype=torch.float64))"),
    ("dim_range", "y = torch.zeros(2, 3).scatter(2, torch.tensor([[1, 0, 1]]), 1.0)"),
    ("leaf", "x = torch.zeros(2, 3, requires_grad=True)\nx.scatter_(0, torch.tensor([[1, 0, 1]]), 1.0)\ny = x"),
]:
    case(f"scatter/err/{cid}", code)
# --- nan_to_num -------------------------------------------------------------------------------------------------
case("nan_to_num/default", "x = torch.tensor([1.0, float('nan'), float('inf'), -float('inf')], requires_grad=True)\n"
     "y = x.nan_to_num()", "x")
case("nan_to_num/values", "x = torch.tensor([1.0, float('nan'), float('inf'), -float('inf')], dtype=torch.float64, "
     "requires_grad=True)\ny = torch.nan_to_num(x, nan=2.0, posinf=1e5, neginf=-1e5)", "x")
case("nan_to_num/int", "y = torch.nan_to_num(torch.tensor([1, 2]))")
# --- torch.normal / random_ (seeded) --------------------------------------------------------------------------------
case("normal/floats_size", "torch.manual_seed(0)\ny = torch.normal(0.0, 1.0, (2, 3))")
case("normal/floats_size_kw", "torch.manual_seed(3)\ny = torch.normal(2.0, 3.0, size=(20,))")
case("normal/tensor_tensor", "torch.manual_seed(0)\nm = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
     "s = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)\ny = torch.normal(m, s)", "ms")
case("normal/tensor_float", "torch.manual_seed(1)\nm = torch.zeros(2, 3, requires_grad=True)\ny = torch.normal(m, 2.0)",
     "m")
case("normal/float_tensor", "torch.manual_seed(2)\ns = torch.ones(17, requires_grad=True)\ny = torch.normal(1.0, s)", "s")
case("normal/bad_args", "y = torch.normal(0, 1)")
case("normal/neg_std", "y = torch.normal(0.0, -1.0, (2,))")
case("random_/to", "torch.manual_seed(0)\ny = torch.empty(4, dtype=torch.long).random_(5)")
case("random_/from_to_float", "torch.manual_seed(0)\ny = torch.empty(3).random_(2, 9)")
case("random_/full_float", "torch.manual_seed(0)\ny = torch.empty(3).random_()")
case("random_/full_double", "torch.manual_seed(0)\ny = torch.empty(3, dtype=torch.float64).random_()")
case("random_/full_long", "torch.manual_seed(0)\ny = torch.empty(3, dtype=torch.long).random_()")
case("random_/full_int", "torch.manual_seed(0)\ny = torch.empty(3, dtype=torch.int32).random_()")
case("random_/nonleaf", "torch.manual_seed(0)\nx = torch.ones(3, requires_grad=True)\nh = x * 1\nh.random_(0, 10)\ny = h",
     "x")
case("random_/bad", "y = torch.empty(3).random_(5, 2)")
case("normal_/nonleaf", "torch.manual_seed(0)\nx = torch.ones(3, requires_grad=True)\nh = x * 1\nh.normal_()\ny = h", "x")
case("uniform_/nonleaf", "torch.manual_seed(0)\nx = torch.ones(3, requires_grad=True)\nh = x * 1\nh.uniform_()\ny = h",
     "x")
# --- set_ -----------------------------------------------------------------------------------------------------------
case("set_/tensor", "a = torch.zeros(3)\nb = torch.tensor([5.0, 6.0])\na.set_(b)\ny = a")
case("set_/nonleaf", f"x = {lit((2,))}\nh = x * 1\nh.set_(torch.tensor([5.0, 6.0]))\ny = h", "x")
case("set_/empty", "a = torch.zeros(3)\ny = a.set_()")
case("set_/dtype_err", "y = torch.zeros(2, dtype=torch.long).set_(torch.tensor([1.0]))")
case("set_/leaf_err", f"x = {lit((2,))}\nx.set_(torch.tensor([5.0, 6.0]))\ny = x", "x")


def main() -> None:
    from gradcli import host

    host.pin_torch()
    import torch
    import torch.nn.functional as F
    host.require_torch_avx2()

    ids = set()
    out = []
    for c in CASES:
        if c["id"] in ids:
            raise SystemExit(f"duplicate case id {c['id']}")
        ids.add(c["id"])
        torch.manual_seed(0)
        exp = run_case(c, torch, F, torch_error_kind, R.torch_warnings)
        out.append(dict(c, expect=exp))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"recorded {len(out)} cases with torch {torch.__version__} -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
