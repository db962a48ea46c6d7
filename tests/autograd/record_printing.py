"""Record PyTorch's own str() of many tensors into data/printing_cases.json.

Run with PyTorch 2.13 installed (the reference version):

    python tests/autograd/record_printing.py

Each case stores the input (values as nested lists, non-finite numbers as the
strings "nan"/"inf"/"-inf", plus shape, dtype, default dtype and autograd flags)
and PyTorch's exact ``str(t)``.  test_printing.py replays them through
gradcli.autograd.printing.format_tensor without needing torch.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from gradcli import host

host.pin_torch()
import torch  # noqa: E402

host.require_torch_avx2()

OUT = Path(__file__).with_name("data") / "printing_cases.json"

nan, inf = float("nan"), float("inf")
f32, f64, f16 = torch.float32, torch.float64, torch.float16
i64, i32, b = torch.int64, torch.int32, torch.bool


def T(v, dtype=None, rg=False):
    return torch.tensor(v, dtype=dtype, requires_grad=rg)


def leaf(v, dtype=None):
    return torch.tensor(v, dtype=dtype, requires_grad=True)


def rn(*shape, seed=0, scale=1.0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=dtype) * scale


# (name, builder, default dtype).  Builders run with the default dtype set.
CASES = [
    # --- float32, 1-d basics and rounding ---
    ("f32_ints", lambda: T([1.0, 2.0, 3.0]), f32),
    ("f32_tenths", lambda: T([0.1, 0.2, 0.3]), f32),
    ("f32_negative_mixed", lambda: T([-1.5, 2.25, -3.125]), f32),
    ("f32_round_half", lambda: T([2.5, 0.00015, 1.00005, 0.12345, 3.14159265]), f32),
    ("f32_round_tricky", lambda: T([0.7, 1.23455, 2.00005, 9.99995, 0.33333334]), f32),
    ("f32_neg_ints", lambda: T([-3.0, 10.0, -250.0]), f32),
    ("f32_big_ints", lambda: T([100000.0, 2.0, 33.0]), f32),
    ("f32_int_1e7", lambda: T([12345678.0, 99999.0]), f32),
    ("f32_single", lambda: T([5.0]), f32),
    ("f32_single_frac", lambda: T([-0.0625]), f32),
    ("f32_zeros", lambda: torch.zeros(4), f32),
    ("f32_negzero", lambda: T([-0.0, 0.0, 1.0]), f32),
    ("f32_negzero_frac", lambda: T([-0.0, 0.5]), f32),
    # --- scientific mode thresholds ---
    ("sci_tiny", lambda: T([1e-5, 1.0]), f32),
    ("sci_min_edge_1e-4", lambda: T([1e-4, 2e-4]), f32),
    ("sci_below_1e-4", lambda: T([9.9999e-5, 2e-4]), f32),
    ("sci_ratio_1000", lambda: T([1.0, 1000.0]), f32),
    ("sci_ratio_1001", lambda: T([1.0, 1001.0]), f32),
    ("sci_ratio_frac", lambda: T([0.5, 600.25]), f32),
    ("sci_max_1e8", lambda: T([1e8, 5e7]), f32),
    ("sci_max_above_1e8", lambda: T([1.5e8, 1e8]), f32),
    ("sci_huge", lambda: T([1e30, -2.5e31]), f32),
    ("sci_mixed_sign", lambda: T([-1e-7, 3.0, 12345.678]), f32),
    ("sci_with_zero", lambda: T([0.0, 1e-6, -2e-6]), f32),
    ("sci_f64_e100", lambda: T([1e100, 1.0, -3e-100], f64), f32),
    # --- nan / inf ---
    ("nan_and_int", lambda: T([nan, 1.0]), f32),
    ("nonfinite_only", lambda: T([inf, -inf, nan]), f32),
    ("nonfinite_frac", lambda: T([1.5, nan, inf, -inf]), f32),
    ("nonfinite_sci", lambda: T([1e-5, inf, nan, -1.0]), f32),
    ("nonfinite_sci_int", lambda: T([nan, 1e10, -inf]), f32),
    ("nonfinite_wide_ints", lambda: T([nan, 12345.0, -inf]), f32),
    # --- 0-d ---
    ("scalar_int_float", lambda: T(3.0), f32),
    ("scalar_tenth", lambda: T(0.1), f32),
    ("scalar_neg_half", lambda: T(-2.5), f32),
    ("scalar_zero", lambda: T(0.0), f32),
    ("scalar_negzero", lambda: T(-0.0), f32),
    ("scalar_nan", lambda: T(nan), f32),
    ("scalar_ninf", lambda: T(-inf), f32),
    ("scalar_tiny", lambda: T(1e-5), f32),
    ("scalar_huge", lambda: T(1e10), f32),
    ("scalar_huge_frac", lambda: T(123456789.5), f32),
    ("scalar_int64", lambda: T(7), f32),
    ("scalar_int32", lambda: T(-7, i32), f32),
    ("scalar_bool", lambda: T(True), f32),
    ("scalar_f64", lambda: T(1.0 / 3.0, f64), f32),
    ("scalar_f16", lambda: T(2.5, f16), f32),
    ("scalar_requires_grad", lambda: leaf(2.0), f32),
    ("scalar_grad_fn_sum", lambda: (leaf([1.0, 2.0, 3.5]) * 2).sum(), f32),
    ("scalar_grad_fn_mean", lambda: leaf([[1.0, 2.0], [3.0, 4.5]]).mean(), f32),
    # --- n-d layout ---
    ("mat_2x3_randn", lambda: rn(2, 3, seed=1), f32),
    ("mat_3x3_ints", lambda: torch.arange(9.0).reshape(3, 3) - 4, f32),
    ("mat_2x2_sci", lambda: T([[1e-6, 1.0], [2.0, 3e3]]), f32),
    ("mat_1x1", lambda: T([[4.25]]), f32),
    ("mat_4x1", lambda: T([[1.0], [2.5], [nan], [-3.0]]), f32),
    ("nd3_arange", lambda: torch.arange(12.0).reshape(2, 2, 3), f32),
    ("nd3_randn", lambda: rn(2, 3, 4, seed=2), f32),
    ("nd4_randn", lambda: rn(2, 2, 2, 2, seed=3), f32),
    ("nd4_ints", lambda: torch.arange(24.0).reshape(1, 2, 3, 4), f32),
    ("nd5_small", lambda: torch.arange(32.0).reshape(2, 2, 2, 2, 2) / 8, f32),
    # --- line wrapping ---
    ("wrap_randn20", lambda: rn(20, seed=4), f32),
    ("wrap_sci30", lambda: rn(30, seed=5, scale=1000.0), f32),
    ("wrap_arange50", lambda: torch.arange(50.0), f32),
    ("wrap_rows_3x15", lambda: rn(3, 15, seed=6), f32),
    ("wrap_nd3_2x3x20", lambda: rn(2, 3, 20, seed=7), f32),
    ("wrap_int_arange100", lambda: torch.arange(100), f32),
    ("wrap_bool_40", lambda: torch.arange(40) % 3 == 0, f32),
    # --- summarisation (> 1000 elements) ---
    ("sum_arange2000", lambda: torch.arange(2000.0), f32),
    ("sum_randn1001", lambda: rn(1001, seed=8), f32),
    ("sum_mat40x40", lambda: rn(40, 40, seed=9), f32),
    ("sum_nd3_10x10x11", lambda: rn(10, 10, 11, seed=10), f32),
    ("sum_sci1500", lambda: rn(1500, seed=11, scale=1e6), f32),
    ("sum_hidden_tiny", lambda: torch.cat([torch.ones(500), T([1e-9]), torch.ones(500) * 2]), f32),
    ("sum_int1500", lambda: torch.arange(1500) - 700, f32),
    ("sum_bool1200", lambda: torch.arange(1200) % 2 == 0, f32),
    ("sum_mat5x300", lambda: rn(5, 300, seed=12), f32),
    ("sum_nd4_3x4x5x20", lambda: rn(3, 4, 5, 20, seed=13), f32),
    ("sum_grad_fn", lambda: leaf(rn(1200, seed=14).tolist()) * 3, f32),
    # --- int64 / int32 ---
    ("i64_basic", lambda: T([1, 2, 3]), f32),
    ("i64_widths", lambda: T([-100, 5, 12345]), f32),
    ("i64_2d", lambda: T([[1, -22], [333, 4]]), f32),
    ("i64_3d", lambda: torch.arange(-6, 6).reshape(2, 3, 2), f32),
    ("i64_huge", lambda: T([2 ** 40, -(2 ** 62), 0]), f32),
    ("i32_basic", lambda: T([1, 2, 3], i32), f32),
    ("i32_2d", lambda: T([[10, -20], [30, 40000]], i32), f32),
    ("i32_wrap", lambda: torch.arange(60, dtype=i32) * 7, f32),
    # --- bool ---
    ("bool_pair", lambda: T([True, False]), f32),
    ("bool_all_true", lambda: T([True, True]), f32),
    ("bool_2d", lambda: T([[True, False, True], [False, False, True]]), f32),
    # --- float16 ---
    ("f16_tenths", lambda: T([0.1, 0.2, 0.3], f16), f32),
    ("f16_max", lambda: T([1000.0, 65504.0], f16), f32),
    ("f16_tiny_sci", lambda: T([1e-5, 1.0, 3e-7], f16), f32),
    ("f16_nan", lambda: T([nan, 1.0, -inf], f16), f32),
    ("f16_2d", lambda: T([[0.333, -1.5], [2.0, 7.77]], f16), f32),
    ("f16_leaf", lambda: leaf([0.5, 1.25], f16), f32),
    # --- float64 under default float32 ---
    ("f64_tenths", lambda: T([0.1, 0.2, 0.3], f64), f32),
    ("f64_2d_ints", lambda: T([[1.0, 2.0], [3.0, 4.0]], f64), f32),
    ("f64_leaf", lambda: leaf([1.0, 2.0], f64), f32),
    ("f64_grad_fn_2d", lambda: leaf([[1.5, -2.0], [3.0, 4.25]], f64) * 2, f32),
    ("f64_precise", lambda: T([1.0 / 3.0, 2.0 / 3.0, 123.456789], f64), f32),
    # --- empty ---
    ("empty_1d", lambda: T([]), f32),
    ("empty_0x3", lambda: torch.zeros(0, 3), f32),
    ("empty_2x0x3", lambda: torch.zeros(2, 0, 3), f32),
    ("empty_i64", lambda: T([], i64), f32),
    ("empty_i64_2d", lambda: torch.zeros(3, 0, dtype=i64), f32),
    ("empty_bool", lambda: T([], b), f32),
    ("empty_i32", lambda: T([], i32), f32),
    ("empty_f64", lambda: T([], f64), f32),
    ("empty_f16_2d", lambda: torch.zeros(0, 2, dtype=f16), f32),
    ("empty_requires_grad", lambda: leaf([]), f32),
    ("empty_grad_fn", lambda: leaf([]) * 2, f32),
    ("empty_f64_leaf_0x4", lambda: torch.zeros(0, 4, dtype=f64, requires_grad=True), f32),
    # --- autograd suffixes and where they wrap ---
    ("rg_1d", lambda: leaf([1.0, 2.0]), f32),
    ("rg_2d", lambda: leaf([[1.0, 2.0], [3.0, 4.0]]), f32),
    ("rg_full_line", lambda: leaf(rn(8, seed=15).tolist()), f32),
    ("rg_wrapped", lambda: leaf(rn(12, seed=16).tolist()), f32),
    ("rg_near_edge_7", lambda: leaf([1.5, -2.5, 3.25, 4.125, -5.0625, 6.5, 7.75]), f32),
    ("rg_near_edge_ints", lambda: leaf([float(i) for i in range(100, 117)]), f32),
    ("gf_mul", lambda: leaf([1.0, 2.0]) * 2, f32),
    ("gf_add_2d", lambda: leaf([[1.0, 2.0], [3.0, 4.0]]) + 1, f32),
    ("gf_exp", lambda: leaf([0.0, 1.0, -1.0]).exp(), f32),
    ("gf_pow", lambda: leaf([1.5, 2.0, 3.0]).pow(2), f32),
    ("gf_mm", lambda: leaf([[1.0, 2.0], [3.0, 4.0]]) @ leaf([[0.5], [0.25]]), f32),
    ("gf_sci", lambda: leaf([1e-6, 1.0]) * 3, f32),
    ("gf_full_line", lambda: leaf(rn(8, seed=17).tolist()) * 1, f32),
    ("gf_3d", lambda: leaf(rn(2, 2, 2, seed=18).tolist()) * 2, f32),
    ("gf_to_double", lambda: leaf([1.0, 2.0]).double(), f32),
    ("gf_f64_mul_wrap", lambda: leaf(rn(8, seed=19, dtype=f64).tolist(), f64) * 2, f32),
    ("gf_f16_mul", lambda: leaf([1.0, 2.5], f16) * 2, f32),
    ("gf_view", lambda: leaf([1.0, 2.0, 3.0, 4.0]).view(2, 2), f32),
    # --- default dtype float64 ---
    ("d64_float", lambda: T([1.0, 2.5]), f64),
    ("d64_tenths", lambda: T([0.1, 0.2, 0.3]), f64),
    ("d64_f32", lambda: T([0.1, 0.2, 0.3], f32), f64),
    ("d64_f32_ints", lambda: T([[1.0, 2.0], [3.0, 4.0]], f32), f64),
    ("d64_f16", lambda: T([0.5, 1.5], f16), f64),
    ("d64_i32", lambda: T([1, 2], i32), f64),
    ("d64_i64", lambda: T([1, 2]), f64),
    ("d64_bool", lambda: T([False, True]), f64),
    ("d64_scalar", lambda: T(1.0 / 7.0), f64),
    ("d64_scalar_f32", lambda: T(1.0 / 7.0, f32), f64),
    ("d64_empty", lambda: T([]), f64),
    ("d64_empty_f32", lambda: T([], f32), f64),
    ("d64_empty_i64_2d", lambda: torch.zeros(0, 2, dtype=i64), f64),
    ("d64_leaf", lambda: leaf([1.0, 2.0]), f64),
    ("d64_f32_leaf_wrap", lambda: leaf(rn(8, seed=20).tolist(), f32), f64),
    ("d64_grad_fn", lambda: leaf([[1.0, 2.0], [3.0, 4.0]]) * 2, f64),
    ("d64_sum_randn", lambda: torch.randn(1100, generator=torch.Generator().manual_seed(21)), f64),
]


def _encode(v):
    """Nested list with JSON-safe numbers: non-finite floats become strings."""
    if isinstance(v, list):
        return [_encode(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def record() -> list[dict]:
    cases = []
    names = set()
    for name, build, default in CASES:
        assert name not in names, name
        names.add(name)
        old = torch.get_default_dtype()
        torch.set_default_dtype(default)
        try:
            t = build()
            text = str(t)
            assert repr(t) == text
            grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
            cases.append({
                "name": name,
                "dtype": str(t.dtype).removeprefix("torch."),
                "default_dtype": str(default).removeprefix("torch."),
                "shape": list(t.shape),
                "requires_grad": t.requires_grad,
                "is_leaf": t.is_leaf,
                "grad_fn": grad_fn,
                "values": _encode(t.detach().tolist()),
                "expected": text,
            })
        finally:
            torch.set_default_dtype(old)
    return cases


def main() -> None:
    cases = record()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    # One case per line: diffs stay readable when the data is re-recorded.
    body = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
    meta = json.dumps({"torch": torch.__version__, "count": len(cases)})
    OUT.write_text('{"meta":' + meta + ',\n"cases":[\n' + body + "\n]}\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
