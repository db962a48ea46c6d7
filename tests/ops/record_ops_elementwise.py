"""Record what PyTorch does for the ELEMENTWISE, IN-PLACE and CREATION op groups:
tests/ops/data/ops_cases_elementwise.json (same case format as record_ops.py / ops_harness.py).

Needs PyTorch (2.13.0 CPU is the reference).  Run from the repository root:

    python tests/ops/record_ops_elementwise.py

``test_ops_recorded.py`` replays these cases too, without PyTorch.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import record_ops as R  # case literals and the warning capture; R.CASES is not used here)
from ops_harness import run_case, torch_error_kind

OUT = os.path.join(HERE, "data", "ops_cases_elementwise.json")

R._rng = np.random.default_rng(20261129)  # own stream: these literals do not depend on record_ops' cases
lit = R.lit

CASES: list = []


def case(cid: str, code: str, inputs=(), out: str = "y") -> None:
    CASES.append({"id": cid, "code": code.strip() + "\n", "out": out, "inputs": list(inputs), "double": True})


# === ELEMENTWISE: unary =============================================================================================

# op -> (lo, hi) domain for random values, and kink values to add
UNARY = {
    "neg": (-2, 2), "log": (0.2, 3), "log1p": (-0.5, 2), "log2": (0.2, 3), "log10": (0.2, 3), "exp": (-2, 2),
    "exp2": (-2, 2), "expm1": (-2, 2), "sqrt": (0.1, 3), "rsqrt": (0.2, 3), "sin": (-3, 3), "cos": (-3, 3),
    "tan": (-1.2, 1.2), "sinh": (-2, 2), "cosh": (-2, 2), "asin": (-0.9, 0.9), "acos": (-0.9, 0.9),
    "atan": (-3, 3), "erf": (-2, 2), "sigmoid": (-3, 3), "relu": (-2, 2), "reciprocal": (0.3, 2),
    "abs": (-2, 2), "sign": (-2, 2), "floor": (-2, 2), "ceil": (-2, 2), "round": (-2, 2), "trunc": (-2, 2),
    "frac": (-2, 2), "square": (-2, 2),
}
for op, (lo, hi) in UNARY.items():
    for dt in ("float32", "float64"):
        case(f"unary/{op}/{dt}", f"x = {lit((2, 3), dt, lo=lo, hi=hi)}\ny = torch.{op}(x)", "x")
    case(f"unary/{op}/method", f"x = {lit((3,), lo=lo, hi=hi)}\ny = x.{op}()", "x")
    case(f"unary/{op}/0d", f"x = {lit((), 'float64', lo=lo, hi=hi)}\ny = x.{op}()", "x")
    case(f"unary/{op}/nonleaf", f"x = {lit((2, 2), lo=lo, hi=hi)}\ny = torch.{op}(x * 1.0)", "x")
# kinks and special values
for cid, vals in [
    ("abs", "[-1.0, 0.0, 2.0]"), ("relu", "[-1.0, 0.0, 2.0]"), ("sqrt", "[0.0, 1.0, 4.0]"),
    ("sign", "[-1.0, 0.0, 2.0]"), ("round", "[0.5, 1.5, 2.5, -0.5, -1.5]"), ("floor", "[-1.0, 0.0, 1.0]"),
    ("trunc", "[-1.5, 0.0, 1.5]"), ("frac", "[-1.5, 0.0, 1.25]"), ("log", "[0.0, 1.0, 2.0]"),
    ("rsqrt", "[0.0, 1.0, 4.0]"), ("reciprocal", "[0.0, -2.0, 4.0]"), ("sigmoid", "[-30.0, 0.0, 30.0]"),
    ("exp", "[-100.0, 0.0, 50.0]"), ("asin", "[-1.0, 0.0, 1.0]"), ("acos", "[-1.0, 0.0, 1.0]"),
    ("log1p", "[-1.0, 0.0, 1e-8]"), ("expm1", "[1e-8, 0.0, -1e-8]"), ("square", "[-1.0, 0.0, 3.0]"),
]:
    for dt in ("float32", "float64"):
        case(f"unary_kink/{cid}/{dt}", f"x = torch.tensor({vals}, dtype=torch.{dt}, requires_grad=True)\n"
             f"y = torch.{cid}(x)", "x")
# integer / bool inputs: promotion of float-valued unary ops, integer-preserving ones
for op in ("neg", "abs", "sign", "square", "exp", "sqrt", "sin", "sigmoid", "log", "reciprocal", "floor", "round",
           "relu", "erf"):
    case(f"unary_int/{op}", f"x = torch.tensor([-2, 0, 3])\ny = torch.{op}(x)")
case("unary_int/round_decimals", "x = torch.tensor([1.234, -2.567], requires_grad=True)\ny = torch.round(x, decimals=1)",
     "x")
case("unary_bool/neg_err", "y = -torch.tensor([True, False])")
case("unary_bool/abs", "y = torch.tensor([True, False]).abs()")
case("unary_bool/exp", "y = torch.tensor([True, False]).exp()")
case("unary/chain", f"x = {lit((3,), lo=0.2, hi=2)}\ny = x.exp().log().sqrt().sin()", "x")
case("unary/neg_operator", f"x = {lit((2, 2))}\ny = -x", "x")
case("unary/abs_operator", f"x = {lit((2, 2))}\ny = abs(x)", "x")

# === ELEMENTWISE: binary ============================================================================================

BIN = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**", "remainder": "%", "floor_divide": "//"}
for op, sym in BIN.items():
    lo = 0.3 if op == "pow" else -2.0
    for dt in ("float32", "float64"):
        bl = 0.5 if op in ("div", "remainder", "floor_divide") else -2.0
        case(f"binary/{op}/{dt}", f"a = {lit((2, 3), dt, lo=lo)}\nb = {lit((2, 3), dt, lo=bl if bl > 0 else -2.0)}\n"
             f"y = torch.{op}(a, b)", "ab")
    case(f"binary/{op}/operator", f"a = {lit((2, 3), lo=lo)}\nb = {lit((2, 3), lo=0.5)}\ny = a {sym} b", "ab")
    case(f"binary/{op}/method", f"a = {lit((3,), lo=lo)}\nb = {lit((3,), lo=0.5)}\ny = a.{op}(b)", "ab")
    case(f"binary/{op}/bcast", f"a = {lit((2, 1, 3), lo=lo)}\nb = {lit((4, 1), lo=0.5)}\ny = a {sym} b", "ab")
    case(f"binary/{op}/bcast_0d", f"a = {lit((2, 3), lo=lo)}\nb = {lit((), 'float64', lo=0.5)}\ny = a {sym} b", "ab")
    case(f"binary/{op}/0d_0d", f"a = {lit((), lo=lo)}\nb = {lit((), lo=0.5)}\ny = a {sym} b", "ab")
    case(f"binary/{op}/scalar_right", f"a = {lit((3,), lo=lo)}\ny = a {sym} 1.5", "a")
    case(f"binary/{op}/scalar_right_int", f"a = {lit((3,), lo=lo)}\ny = a {sym} 2", "a")
    case(f"binary/{op}/scalar_left", f"a = {lit((3,), lo=0.5)}\ny = 1.5 {sym} a", "a")
    case(f"binary/{op}/scalar_left_int", f"a = {lit((3,), lo=0.5)}\ny = 3 {sym} a", "a")
    case(f"binary/{op}/int_int", f"a = torch.tensor([7, -7, 4])\nb = torch.tensor([2, 2, 3])\ny = a {sym} b")
    case(f"binary/{op}/int_float", f"a = torch.tensor([7, -7, 4])\nb = {lit((3,), lo=0.5)}\ny = a {sym} b", "b")
    case(f"binary/{op}/int_scalar_float", f"a = torch.tensor([7, -7, 4])\ny = a {sym} 2.5")
    case(f"binary/{op}/f32_f64", f"a = {lit((3,), lo=lo)}\nb = {lit((3,), 'float64', lo=0.5)}\ny = a {sym} b", "ab")
    case(f"binary/{op}/f32_0d_f64", f"a = {lit((3,), lo=lo)}\nb = torch.tensor(2.0, dtype=torch.float64)\n"
         f"y = a {sym} b", "a")
    case(f"binary/{op}/int_0d_float", f"a = torch.tensor([7, -7, 4])\nb = torch.tensor(2.5, requires_grad=True)\n"
         f"y = a {sym} b", "b")
    case(f"binary/{op}/bool_int", f"a = torch.tensor([True, False, True])\nb = torch.tensor([2, 3, 4])\ny = a {sym} b")
    case(f"binary/{op}/same_input", f"a = {lit((3,), lo=0.5)}\ny = a {sym} a", "a")
case("binary/add/alpha", f"a = {lit((3,))}\nb = {lit((3,))}\ny = torch.add(a, b, alpha=2.5)", "ab")
case("binary/sub/alpha", f"a = {lit((3,))}\nb = {lit((3,))}\ny = a.sub(b, alpha=-0.5)", "ab")
case("binary/add/alpha_int", "y = torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=2)")
case("binary/add/alpha_float_on_int_err", "y = torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=2.5)")
case("binary/add/alpha_scalar_other", f"a = {lit((3,))}\ny = torch.add(a, 2.0, alpha=3)", "a")
case("binary/sub/bool_err", "y = torch.tensor([True]) - torch.tensor([False])")
case("binary/sub/int_bool_err", "y = torch.tensor([2]) - torch.tensor([True])")
case("binary/sub/bool_scalar_err", "y = torch.tensor([True]) - 1")
case("binary/sub/scalar_bool_err", "y = 1 - torch.tensor([True])")
case("binary/sub/int_pybool_err", "y = torch.tensor([2]) - True")
case("binary/div/rounding_trunc", f"a = {lit((4,))}\nb = {lit((4,), lo=0.5)}\ny = torch.div(a, b, rounding_mode='trunc')",
     "ab")
case("binary/div/rounding_floor", f"a = {lit((4,))}\nb = {lit((4,), lo=0.5)}\ny = a.div(b, rounding_mode='floor')", "ab")
case("binary/div/int_true", "y = torch.tensor([7, -7]) / torch.tensor([2, 2])")
case("binary/div/int_floor_mode", "y = torch.div(torch.tensor([7, -7]), 2, rounding_mode='floor')")
case("binary/div/by_zero", "a = torch.tensor([1.0, -1.0, 0.0], requires_grad=True)\ny = a / 0.0", "a")
case("binary/floor_divide/int_zero_err", "y = torch.tensor([1, 2]) // 0")
case("binary/remainder/neg", "a = torch.tensor([-3.0, 3.0, -3.5, 3.5], requires_grad=True)\n"
     "b = torch.tensor([2.0, -2.0, 2.0, -2.0], requires_grad=True)\ny = torch.remainder(a, b)", "ab")
case("binary/pow/zero_base", "a = torch.tensor([0.0, 0.0, 2.0], requires_grad=True)\n"
     "b = torch.tensor([0.0, 2.0, 0.0], requires_grad=True)\ny = a ** b", "ab")
case("binary/pow/neg_base_int_exp", "a = torch.tensor([-2.0, -0.5], requires_grad=True)\ny = a ** 3", "a")
case("binary/pow/neg_base_frac", "a = torch.tensor([-2.0, 4.0], requires_grad=True)\ny = a ** 0.5", "a")
case("binary/pow/exp0", f"a = {lit((3,))}\ny = a ** 0", "a")
case("binary/pow/exp1", f"a = {lit((3,))}\ny = a.pow(1)", "a")
case("binary/pow/exp2", f"a = {lit((3,))}\ny = torch.pow(a, 2)", "a")
case("binary/pow/exp_neg", f"a = {lit((3,), lo=0.5)}\ny = a ** -1.5", "a")
case("binary/pow/scalar_base_tensor", f"b = {lit((3,))}\ny = torch.pow(2.0, b)", "b")
case("binary/pow/int_neg_exp_err", "y = torch.tensor([2, 3]) ** -1")
case("binary/pow/int_tensor", "y = torch.tensor([2, 3]) ** torch.tensor([3, 2])")
case("binary/mul/bool_bool", "y = torch.tensor([True, False]) * torch.tensor([True, True])")
case("binary/add/bool_bool", "y = torch.tensor([True, False]) + torch.tensor([True, True])")
case("binary/add/bool_scalar", "y = torch.tensor([True, False]) + 1")
case("binary/add/bool_float_scalar", "y = torch.tensor([True, False]) + 1.5")
case("binary/add/shape_err", "y = torch.ones(2, 3) + torch.ones(4)")
case("binary/add/bcast_both", f"a = {lit((3, 1))}\nb = {lit((1, 4))}\ny = a + b", "ab")
case("binary/mul/bcast_rank", f"a = {lit((2, 3, 4))}\nb = {lit((4,))}\ny = a * b", "ab")
case("binary/mul/const_other", f"a = {lit((2, 3))}\nb = {lit((3,), rg=False)}\ny = a * b", "a")
case("binary/mul/chain", f"a = {lit((3,))}\nb = {lit((3,))}\ny = (a * b + a) / (b * b + 1.0)", "ab")
case("binary/long_int_scalar", "y = torch.tensor([1, 2], dtype=torch.int32) + 5")
case("binary/int32_int64", "y = torch.tensor([1, 2], dtype=torch.int32) * torch.tensor([3, 4])")
case("binary/int32_0d_long", "y = torch.tensor([1, 2], dtype=torch.int32) * torch.tensor(3)")
case("binary/f64_0d_f32_tensor", "y = torch.tensor(2.0, dtype=torch.float64) + torch.ones(2)")
case("binary/int_0d_f32_0d", "y = torch.tensor(2) + torch.tensor(1.5)")

# === ELEMENTWISE: clamp / maximum / minimum / where ==================================================================

C = "torch.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], requires_grad=True)"
for cid, expr in [
    ("clamp/both", "torch.clamp(x, -1.0, 1.0)"), ("clamp/min_kw", "x.clamp(min=-0.5)"),
    ("clamp/max_kw", "x.clamp(max=0.5)"), ("clamp/int_bounds", "torch.clamp(x, -1, 1)"),
    ("clamp/min_gt_max", "x.clamp(1.0, -1.0)"), ("clamp/equal_bounds", "x.clamp(0.5, 0.5)"),
    ("clip", "torch.clip(x, -1.0, 1.0)"), ("clamp_min", "x.clamp_min(0.0)"), ("clamp_max", "torch.clamp_max(x, 0.0)"),
    ("clamp/tensor_bounds", "x.clamp(torch.full((7,), -0.5), torch.full((7,), 0.5))"),
]:
    case(f"clamp/{cid}", f"x = {C}\ny = {expr}", "x")
case("clamp/f64", f"x = {lit((2, 3), 'float64')}\ny = x.clamp(-0.5, 0.5)", "x")
case("clamp/int", "y = torch.tensor([-3, 0, 5]).clamp(-1, 2)")
case("clamp/int_float_bound", "y = torch.tensor([-3, 0, 5]).clamp(-1.5, 2.5)")
case("clamp/none_err", "y = torch.ones(2).clamp()")
case("clamp/tensor_bounds_grad", "x = torch.tensor([-2.0, 0.0, 2.0], requires_grad=True)\n"
     "lo = torch.tensor([-1.0, 0.0, -3.0], requires_grad=True)\nhi = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)\n"
     "y = torch.clamp(x, lo, hi)", ["x", "lo", "hi"])
for op in ("maximum", "minimum", "fmax", "fmin"):
    case(f"maxmin/{op}", f"a = {lit((2, 3))}\nb = {lit((2, 3))}\ny = torch.{op}(a, b)", "ab")
    case(f"maxmin/{op}/ties", "a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
         f"b = torch.tensor([1.0, 0.0, 3.0], requires_grad=True)\ny = torch.{op}(a, b)", "ab")
    case(f"maxmin/{op}/bcast", f"a = {lit((2, 3))}\nb = {lit((3,), 'float64')}\ny = a.{op}(b)", "ab")
    case(f"maxmin/{op}/nan", "a = torch.tensor([float('nan'), 1.0], requires_grad=True)\n"
         f"b = torch.tensor([0.0, float('nan')], requires_grad=True)\ny = torch.{op}(a, b)", "ab")
case("maxmin/maximum/int", "y = torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2]))")
case("maxmin/maximum/scalar_err", "y = torch.maximum(torch.ones(2), 1.0)")
case("where/basic", f"c = torch.tensor([True, False, True])\na = {lit((3,))}\nb = {lit((3,))}\ny = torch.where(c, a, b)",
     "ab")
case("where/bcast", f"c = torch.tensor([[True], [False]])\na = {lit((3,))}\nb = {lit((2, 1))}\ny = torch.where(c, a, b)",
     "ab")
case("where/scalar_other", f"a = {lit((4,))}\ny = torch.where(a > 0, a, 0.0)", "a")
case("where/scalar_both", f"a = {lit((4,))}\ny = torch.where(a > 0, 1.0, -1.0)")
case("where/scalar_self", f"a = {lit((4,))}\ny = torch.where(a > 0, 2.0, a)", "a")
case("where/method", f"a = {lit((4,))}\nb = {lit((4,))}\ny = a.where(a < b, b)", "ab")
case("where/promote", f"a = {lit((3,))}\nb = {lit((3,), 'float64')}\ny = torch.where(torch.tensor([True, False, True]), a, b)",
     "ab")
case("where/int_float", "y = torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([0.5, 1.5]))")
case("where/cond_float_err", "y = torch.where(torch.tensor([1.0, 0.0]), torch.ones(2), torch.zeros(2))")
case("where/one_arg", "y = torch.where(torch.tensor([[0.0, 1.0], [2.0, 0.0]]))[0]")

# === ELEMENTWISE: comparisons and logic =============================================================================

for op, sym in (("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")):
    case(f"cmp/{op}", "a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nb = torch.tensor([1.0, 3.0, 2.0])\n"
         f"y = a {sym} b")
    case(f"cmp/{op}/fn", f"y = torch.{op}(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 2.0, 3.0]))")
    case(f"cmp/{op}/scalar", f"y = torch.tensor([1, 2, 3]).{op}(2)")
    case(f"cmp/{op}/scalar_left", f"y = 2.5 {sym} torch.tensor([1, 2, 3])")
    case(f"cmp/{op}/nan", f"y = torch.tensor([float('nan'), 1.0]) {sym} torch.tensor([float('nan'), 1.0])")
    case(f"cmp/{op}/int_float", f"y = torch.tensor([1, 2]) {sym} torch.tensor([1.0, 1.5])")
for cid, expr in [
    ("logical_and", "torch.logical_and(a, b)"), ("logical_or", "torch.logical_or(a, b)"),
    ("logical_xor", "a.logical_xor(b)"), ("logical_not", "torch.logical_not(a)"),
    ("and_op", "a & b"), ("or_op", "a | b"), ("xor_op", "a ^ b"), ("invert", "~a"),
    ("logical_and_float", "torch.logical_and(torch.tensor([0.0, 1.5]), torch.tensor([2.0, 3.0]))"),
    ("logical_not_int", "torch.logical_not(torch.tensor([0, 3]))"),
    ("isnan", "torch.isnan(torch.tensor([float('nan'), 1.0]))"),
    ("isinf", "torch.isinf(torch.tensor([float('inf'), 1.0, -float('inf')]))"),
    ("isfinite", "torch.tensor([float('inf'), 1.0, float('nan')]).isfinite()"),
    ("eq_bool", "a == b"),
    ("any", "(a | b).any()"), ("all", "(a & b).all()"),
    ("equal_fn", "torch.tensor(torch.equal(torch.ones(2), torch.ones(2)))"),
    ("allclose", "torch.tensor(torch.allclose(torch.ones(2), torch.ones(2) + 1e-9))"),
]:
    case(f"logic/{cid}", f"a = torch.tensor([True, False, True, False])\nb = torch.tensor([True, True, False, False])\n"
         f"y = {expr}")

# === IN-PLACE =======================================================================================================

for op, arg in (("add_", "b"), ("sub_", "b"), ("mul_", "b"), ("div_", "b"), ("pow_", "2.0"), ("add_", "1.5"),
                ("mul_", "-2"), ("clamp_", "-0.5, 0.5"), ("clamp_min_", "0.0"), ("clamp_max_", "0.0")):
    tag = op + ("" if arg == "b" else "/scalar" + arg.replace(" ", ""))
    pre = f"b = {lit((2, 3), lo=0.5)}\n" if arg == "b" else ""
    ins = ["x", "b"] if arg == "b" else ["x"]
    case(f"inplace/{tag}", f"x = {lit((2, 3), lo=0.3)}\n{pre}h = x * 1\nh.{op}({arg})\ny = h", ins)
case("inplace/add_/alpha", f"x = {lit((3,))}\nb = {lit((3,))}\nh = x.clone()\nh.add_(b, alpha=2)\ny = h", "xb")
case("inplace/sub_/alpha", f"x = {lit((3,))}\nb = {lit((3,))}\nh = x.clone()\nh.sub_(b, alpha=0.5)\ny = h", "xb")
case("inplace/add_/bcast", f"x = {lit((2, 3))}\nb = {lit((3,))}\nh = x * 1\nh.add_(b)\ny = h", "xb")
case("inplace/add_/bcast_err", f"x = {lit((3,))}\nb = {lit((2, 3))}\nh = x * 1\nh.add_(b)\ny = h", "xb")
case("inplace/add_/f64_into_f32", f"x = {lit((3,))}\nb = {lit((3,), 'float64')}\nh = x * 1\nh.add_(b)\ny = h", "xb")
case("inplace/add_/float_into_int_err", "h = torch.tensor([1, 2])\nh.add_(1.5)\ny = h")
case("inplace/div_/int_err", "h = torch.tensor([1, 2])\nh.div_(2)\ny = h")
case("inplace/mul_/int", "h = torch.tensor([1, 2])\nh.mul_(3)\ny = h")
case("inplace/zero_", f"x = {lit((2, 3))}\nh = x * 2\nh.zero_()\ny = h", "x")
case("inplace/fill_", f"x = {lit((2, 3))}\nh = x * 2\nh.fill_(1.5)\ny = h", "x")
case("inplace/fill_/tensor", f"x = {lit((2, 3))}\nv = {lit(())}\nh = x * 2\nh.fill_(v)\ny = h", "xv")
case("inplace/fill_/int", "h = torch.zeros(3, dtype=torch.long)\nh.fill_(2.7)\ny = h")
case("inplace/copy_", f"x = {lit((2, 3))}\ns = {lit((2, 3))}\nh = x * 2\nh.copy_(s)\ny = h", "xs")
case("inplace/copy_/bcast", f"x = {lit((2, 3))}\ns = {lit((3,), 'float64')}\nh = x * 2\nh.copy_(s)\ny = h", "xs")
case("inplace/copy_/into_nograd", f"s = {lit((3,))}\nh = torch.zeros(3)\nh.copy_(s)\ny = h * h", "s")
case("inplace/copy_/shape_err", f"s = {lit((4,))}\nh = torch.zeros(3)\nh.copy_(s)\ny = h")
case("inplace/masked_fill_", f"x = {lit((2, 3))}\nh = x * 2\nh.masked_fill_(torch.tensor([True, False, True]), -1.0)\n"
     "y = h", "x")
case("inplace/masked_fill_/tensor_value", f"x = {lit((2, 3))}\nv = {lit(())}\nh = x * 2\n"
     "h.masked_fill_(torch.tensor([[True, False, True], [False, False, True]]), v)\ny = h", "xv")
for op in ("neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "reciprocal", "square",
           "floor", "round", "sign", "rsqrt", "expm1", "log1p", "trunc", "frac", "ceil"):
    lo = 0.3 if op in ("log", "sqrt", "rsqrt", "reciprocal", "log1p") else -2.0
    case(f"inplace_unary/{op}_", f"x = {lit((2, 3), lo=lo)}\nh = x * 1\nh.{op}_()\ny = h", "x")
case("inplace_unary/chain", f"x = {lit((3,), lo=0.3)}\nh = x + 0\nh.exp_().log_().mul_(2).sqrt_()\ny = h", "x")
case("inplace_unary/returns_self", f"x = {lit((3,))}\nh = x * 1\ny = h.exp_()", "x")
case("inplace_unary/torch_fn", f"x = {lit((3,))}\nh = x * 1\ny = torch.relu_(h)", "x")
# indexing assignment
case("setitem/int", f"x = {lit((3, 2))}\nh = x * 1\nh[1] = 0.5\ny = h", "x")
case("setitem/tensor_value", f"x = {lit((3, 2))}\nv = {lit((2,))}\nh = x * 1\nh[1] = v\ny = h", "xv")
case("setitem/slice", f"x = {lit((4,))}\nv = {lit((2,))}\nh = x * 1\nh[1:3] = v * 2\ny = h", "xv")
case("setitem/mask", f"x = {lit((4,))}\nh = x * 1\nh[h > 0] = 0.0\ny = h", "x")
case("setitem/bcast", f"x = {lit((2, 3))}\nv = {lit(())}\nh = x * 1\nh[:, 0] = v\ny = h", "xv")
case("setitem/into_nograd", f"v = {lit((2,))}\nh = torch.zeros(3, 2)\nh[0] = v\ny = h", "v")
case("setitem/leaf_err", f"x = {lit((3,))}\nx[0] = 1.0\ny = x", "x")
case("setitem/nograd_leaf", f"x = {lit((3,))}\nwith torch.no_grad():\n    x[0] = 1.0\ny = x * 2", "x")
case("setitem/int_tensor", "h = torch.zeros(3, dtype=torch.long)\nh[1] = 7.9\ny = h")
# augmented assignment on non-leaves
for sym in ("+=", "-=", "*=", "/="):
    nm = {"+=": "iadd", "-=": "isub", "*=": "imul", "/=": "idiv"}[sym]
    case(f"augassign/{nm}", f"x = {lit((2, 3))}\nb = {lit((2, 3), lo=0.5)}\nh = x * 1\nh {sym} b\ny = h", "xb")
    case(f"augassign/{nm}/scalar", f"x = {lit((3,))}\nh = x * 1\nh {sym} 2.0\ny = h", "x")
    case(f"augassign/{nm}/leaf_err", f"x = {lit((3,))}\nx {sym} 2.0\ny = x", "x")
    case(f"augassign/{nm}/nograd_leaf", f"x = {lit((3,), rg=False)}\nb = {lit((3,), lo=0.5)}\nx {sym} b\ny = x", "b")
case("augassign/int_idiv_err", "h = torch.tensor([1, 2])\nh /= 2\ny = h")
case("augassign/int_iadd", "h = torch.tensor([1, 2])\nh += 2\ny = h")
case("augassign/alias_identity", f"x = {lit((3,))}\nh = x * 1\ng = h\nh += 1.0\nh *= g\ny = h", "x")
# leaf in-place errors
for cid, code in [("add_", "x.add_(1.0)"), ("mul_", "x.mul_(2)"), ("zero_", "x.zero_()"), ("fill_", "x.fill_(0.0)"),
                  ("copy_", "x.copy_(torch.ones(3))"), ("exp_", "x.exp_()"), ("clamp_", "x.clamp_(0.0, 1.0)"),
                  ("masked_fill_", "x.masked_fill_(torch.tensor([True, False, True]), 0.0)"),
                  ("view", "x.view(3).add_(1.0)")]:
    case(f"leaf_inplace/{cid}", f"x = {lit((3,))}\n{cid.rstrip('_')}_r = {code}\ny = x", "x")
case("leaf_inplace/no_grad_ok", f"x = {lit((3,))}\nwith torch.no_grad():\n    x.add_(1.0)\n    x.mul_(2.0)\ny = x * x", "x")
case("leaf_inplace/detach_ok", f"x = {lit((3,))}\nx.detach().zero_()\ny = x * 1", "x")
# version errors
for cid, code, ins in [
    ("exp_output", f"x = {lit((3,))}\nh = x.exp()\nh.add_(1)\ny = h", "x"),
    ("exp_output_used", f"x = {lit((3,))}\nh = x.exp()\ny = h * 2\nh.add_(1)", "x"),
    ("mul_input", f"x = {lit((3,))}\nw = {lit((3,))}\nh = x * 1\ny = h * w\nh.mul_(2)", "xw"),
    ("add_input_ok", f"x = {lit((3,))}\nw = {lit((3,))}\nh = x * 1\ny = h + w\nh.mul_(2)", "xw"),
    ("sigmoid_out", f"x = {lit((3,))}\nh = torch.sigmoid(x)\ny = h * 1\nh.mul_(2)", "x"),
    ("sqrt_out", f"x = {lit((3,), lo=0.2)}\nh = x.sqrt()\ny = h.sum() * 1\nh.zero_()", "x"),
    ("pow_input", f"x = {lit((3,))}\nh = x * 1\ny = h ** 2\nh += 1", "x"),
    ("div_other", f"x = {lit((3,))}\nw = {lit((3,), lo=0.5)}\nd = w * 1\ny = x / d\nd *= 2", "xw"),
    ("relu_inplace_then_use", f"x = {lit((3,))}\nh = x * 1\ny = h.relu_() * 1\nh.mul_(3)", "x"),
    ("setitem_saved", f"x = {lit((3,))}\nh = x * 1\ny = h * h\nh[0] = 0.0", "x"),
    ("view_modified", f"x = {lit((2, 3))}\nh = x * 1\ny = h.exp()\nh[0].zero_()", "x"),
    ("clamp_input_after", f"x = {lit((3,))}\nh = x * 1\ny = h.clamp(-0.5, 0.5)\nh.add_(1)", "x"),
]:
    case(f"ver/{cid}", code, ins)

# === CREATION =======================================================================================================

for cid, code in [
    ("tensor/float_list", "y = torch.tensor([1.0, 2.0])"), ("tensor/int_list", "y = torch.tensor([1, 2])"),
    ("tensor/bool_list", "y = torch.tensor([True, False])"), ("tensor/mixed", "y = torch.tensor([1, 2.5])"),
    ("tensor/mixed_bool_int", "y = torch.tensor([True, 2])"), ("tensor/scalar_float", "y = torch.tensor(3.5)"),
    ("tensor/scalar_int", "y = torch.tensor(3)"), ("tensor/scalar_bool", "y = torch.tensor(False)"),
    ("tensor/nested", "y = torch.tensor([[1, 2], [3, 4]])"), ("tensor/empty", "y = torch.tensor([])"),
    ("tensor/empty_nested", "y = torch.tensor([[], []])"), ("tensor/empty_tuple", "y = torch.tensor(())"),
    ("tensor/dtype_f64", "y = torch.tensor([1, 2], dtype=torch.float64)"),
    ("tensor/dtype_int_from_float", "y = torch.tensor([1.7, -1.7], dtype=torch.int64)"),
    ("tensor/dtype_bool", "y = torch.tensor([0.0, 2.0], dtype=torch.bool)"),
    ("tensor/dtype_int32", "y = torch.tensor([1, 2], dtype=torch.int32)"),
    ("tensor/ragged_err", "y = torch.tensor([[1, 2], [3]])"),
    ("tensor/int_requires_grad_err", "y = torch.tensor([1, 2], requires_grad=True)"),
    ("tensor/from_tensors_0d", "y = torch.tensor([torch.tensor(1.5), torch.tensor(2.0)])"),
    ("tensor/nan_inf", "y = torch.tensor([float('nan'), float('inf'), -float('inf')])"),
    ("tensor/tuple", "y = torch.tensor(((1.0, 2.0), (3.0, 4.0)))"),
    ("zeros", "y = torch.zeros(2, 3)"), ("zeros/tuple", "y = torch.zeros((2, 3))"),
    ("zeros/dtype", "y = torch.zeros(2, dtype=torch.int64)"), ("zeros/0d", "y = torch.zeros(())"),
    ("zeros/empty_dim", "y = torch.zeros(0, 3)"), ("zeros/neg_err", "y = torch.zeros(-1)"),
    ("ones", "y = torch.ones(3)"), ("ones/dtype_bool", "y = torch.ones(2, 2, dtype=torch.bool)"),
    ("ones/list", "y = torch.ones([2, 1])"),
    ("full", "y = torch.full((2, 2), 1.5)"), ("full/int", "y = torch.full((2,), 3)"),
    ("full/bool", "y = torch.full((2,), True)"), ("full/dtype", "y = torch.full((2,), 3, dtype=torch.float64)"),
    ("full/nan", "y = torch.full((2,), float('nan'))"),
    ("arange/int", "y = torch.arange(5)"), ("arange/start_end", "y = torch.arange(2, 7)"),
    ("arange/step", "y = torch.arange(0, 10, 3)"), ("arange/neg_step", "y = torch.arange(5, 0, -2)"),
    ("arange/float", "y = torch.arange(0.0, 1.0, 0.25)"), ("arange/float_end", "y = torch.arange(2.5)"),
    ("arange/dtype", "y = torch.arange(4, dtype=torch.float64)"), ("arange/empty", "y = torch.arange(3, 3)"),
    ("arange/float_step_int", "y = torch.arange(0, 2, 0.5)"), ("arange/zero_step_err", "y = torch.arange(0, 5, 0)"),
    ("arange/wrong_sign_err", "y = torch.arange(0, 5, -1)"),
    ("linspace", "y = torch.linspace(0, 1, 5)"), ("linspace/one", "y = torch.linspace(2, 3, 1)"),
    ("linspace/zero", "y = torch.linspace(2, 3, 0)"), ("linspace/dtype", "y = torch.linspace(-1, 1, 4, dtype=torch.float64)"),
    ("linspace/reverse", "y = torch.linspace(3.0, -1.0, 5)"),
    ("eye", "y = torch.eye(3)"), ("eye/rect", "y = torch.eye(2, 4)"), ("eye/dtype", "y = torch.eye(2, dtype=torch.int64)"),
    ("eye/zero", "y = torch.eye(0)"),
    ("empty/shape", "y = torch.empty(2, 3).zero_()"), ("empty/dtype", "y = torch.empty(2, dtype=torch.int64).fill_(1)"),
    ("zeros_like", "y = torch.zeros_like(torch.ones(2, 3, dtype=torch.float64))"),
    ("ones_like/dtype", "y = torch.ones_like(torch.ones(2, 3), dtype=torch.int64)"),
    ("full_like", "y = torch.full_like(torch.ones(2), 2.5)"),
    ("full_like/int_input", "y = torch.full_like(torch.tensor([1, 2]), 2.7)"),
    ("empty_like", "y = torch.empty_like(torch.ones(2, 2)).fill_(0.5)"),
    ("zeros_like/from_int", "y = torch.zeros_like(torch.tensor([1, 2]))"),
    ("ones_like/from_bool", "y = torch.ones_like(torch.tensor([True, False]))"),
]:
    case(f"create/{cid}", code)
for cid, code in [
    ("zeros", "x = torch.zeros(2, 3, requires_grad=True)"), ("ones", "x = torch.ones(3, requires_grad=True)"),
    ("full", "x = torch.full((2,), 1.5, requires_grad=True)"),
    ("arange", "x = torch.arange(0.0, 3.0, requires_grad=True)"),
    ("linspace", "x = torch.linspace(0, 1, 3, requires_grad=True)"),
    ("eye", "x = torch.eye(2, requires_grad=True)"),
    ("empty", "x = torch.empty(3, requires_grad=True)\nwith torch.no_grad():\n    x.fill_(2.0)"),
    ("zeros_like", "x = torch.zeros_like(torch.ones(2), requires_grad=True)"),
    ("ones_like_f64", "x = torch.ones_like(torch.ones(2), dtype=torch.float64, requires_grad=True)"),
    ("full_like", "x = torch.full_like(torch.ones(2), 0.5, requires_grad=True)"),
    ("tensor_f64", "x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)"),
    ("requires_grad_method", "x = torch.ones(3).requires_grad_()"),
]:
    case(f"create_rg/{cid}", f"{code}\ny = (x * x + 1.0).sin()", "x")
    case(f"create_rg/{cid}/leaf", f"{code}\ny = x")
for cid, code in [
    ("zeros_int_err", "y = torch.zeros(2, dtype=torch.int64, requires_grad=True)"),
    ("arange_int_err", "y = torch.arange(3, requires_grad=True)"),
    ("ones_like_int_err", "y = torch.ones_like(torch.ones(2), dtype=torch.int64, requires_grad=True)"),
    ("like_keeps_no_grad", "x = torch.ones(2, requires_grad=True)\ny = torch.zeros_like(x)"),
    ("like_of_nonleaf", "x = torch.ones(2, requires_grad=True)\ny = torch.ones_like(x * 2) * x"),
]:
    case(f"create_rg/{cid}", code, "x" if "x =" in code and "zeros_like(x)" not in code else ())

# float32 summation order: PyTorch's cascade sum (8 lanes, 4 accumulators) rounds differently from a pairwise
# sum; the difference shows once the float32 sum is cast to float64 (values made of correctly rounded ops)
for n in (5, 7, 8, 37, 100, 1000, 5000, 32768):
    case(f"sum/f32_order/{n}", f"x = (torch.arange({n}, dtype=torch.float32) * 0.37 - 11.0) / 7.0\n"
                               f"y = x.sum().double()")
case("sum/f32_order/all_dims_keepdim", "x = (torch.arange(1000, dtype=torch.float32) * 0.37 - 11.0) / 7.0\n"
                                       "y = x.reshape(10, 100).sum(dim=(0, 1), keepdim=True).double()")
case("binary/mul/bcast_0d_large", "a = (torch.arange(1200, dtype=torch.float32).reshape(30, 40) * 0.37 - 200.0) / 7.0\n"
                                  "b = torch.tensor(1.52, dtype=torch.float64, requires_grad=True)\ny = a * b", "b")

# clamp's gradients are wheres (PyTorch's clamp_backward / clamp_backward_min_max): an inf or nan gradient
# outside the bounds gives 0, tensor bounds get theirs, equal or crossed bounds as PyTorch
case("clamp/inf_grad_outside", "x = torch.tensor([-2.0, float('nan'), 1.0], requires_grad=True)\n"
                               "y = x.clamp_min(0.0).rsqrt() + x.clamp(0.0, 2.0).rsqrt() + x.clamp(max=0.5).sqrt()", "x")
for cid, lo, hi in (("equal", "1.0", "1.0"), ("crossed", "2.0", "0.5")):
    case(f"clamp/tensor_bounds_{cid}", "x = torch.tensor([-1.0, 1.0, 1.5, 4.0], requires_grad=True)\n"
                                       f"lo = torch.tensor({lo}, requires_grad=True)\n"
                                       f"hi = torch.tensor({hi}, requires_grad=True)\ny = torch.clamp(x, lo, hi)",
         ["x", "lo", "hi"])
case("clamp_min/tensor", "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
                         "m = torch.tensor([2.5, 1.0], dtype=torch.float64, requires_grad=True)\ny = x.clamp_min(m)",
     ["x", "m"])
case("clamp_max/tensor", "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
                         "m = torch.tensor([2.5, 1.0], requires_grad=True)\ny = torch.clamp_max(x, m)", ["x", "m"])
case("inplace/clamp_max_/tensor", "x = torch.tensor([1.0, 3.0], requires_grad=True)\nh = x * 1\n"
                                  "h.clamp_max_(torch.tensor([2.5, 2.5]))\ny = h", "x")
case("clamp_min/int_float_tensor", "y = torch.clamp_min(torch.tensor([1, 2, 3]), torch.tensor(1.5))")

# relu's backward is threshold_backward, a where: an inf gradient where relu is flat gives 0 (NaN input: passes)
case("unary/relu/inf_grad_masked", "x = torch.tensor([-2.0, float('nan'), 0.0, 0.5], requires_grad=True)\n"
                                   "y = torch.relu(x) * torch.tensor([float('inf'), float('inf'), float('inf'), 2.0])",
     "x")

# a backward that PyTorch implements as one differentiable op: the gradient itself is the output, so its graph
# (edges to the incoming gradient and to the saved result) and its own derivatives up to third order are recorded
for op in ("torch.tanh", "torch.sigmoid", "torch.relu", "F.leaky_relu", "F.hardtanh"):
    case(f"backward_op/{op.split('.')[1]}", "x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], requires_grad=True)\n"
                                          "v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)\n"
                                          f"y, = torch.autograd.grad({op}(x), x, v, create_graph=True)", ["x", "v"])

# sgn (sign on real tensors, its own node SgnBackward0 saving self); abs's backward is grad * self.sgn()
case("unary/sgn/float32", "x = torch.tensor([-2.0, 0.0, 3.0, float('nan')], requires_grad=True)\ny = torch.sgn(x)", "x")
case("unary/sgn/int", "y = torch.tensor([-2, 0, 3]).sgn()")
case("unary/sgn/bool", "y = torch.tensor([True, False]).sgn()")
case("backward_op/abs", "x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], requires_grad=True)\n"
                        "v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)\n"
                        "y, = torch.autograd.grad(torch.abs(x), x, v, create_graph=True)", ["x", "v"])


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
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"recorded {len(out)} cases with torch {torch.__version__} -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
