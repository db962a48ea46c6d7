"""Record PyTorch's exact bytes for the ops its CPU kernels compute with a fused multiply-add (and their
neighbours the optimizers use): tests/ops/data/fused_cases.json.

    python tests/ops/record_fused.py

Inputs are a fixed function of the element index (:func:`values`, also in test_fused.py), so only the
outputs are stored: the exact bytes (hex) for small tensors, a SHA-256 of the bytes for large ones.
Sizes cover the vectorized part of a row, its scalar tail (n % 16 for float32) and a tensor large enough
to be split over PyTorch's threads (2 threads here).

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from gradcli import host

host.pin_torch()
import torch  # noqa: E402

host.require_torch_avx2()
torch.set_num_threads(2)

OUT = Path(__file__).with_name("data") / "fused_cases.json"
SIZES = (1, 7, 37, 1003, 70001)
SMALL = 64  # tensors up to this many elements store their bytes, larger ones a hash


def values(n: int, salt: int, lo: float, hi: float, dtype: str) -> np.ndarray:
    """n values in [lo, hi): a multiplicative hash of the index (the same in the recorder and the test)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (lo + (hi - lo) * u).astype(dtype)


#: case name -> (operand (salt, lo, hi) list, expression over a, b, c as torch tensors)
CASES = {
    "add_alpha": ([(1, -2, 2), (2, -2, 2)], "a.add(b, alpha=-0.0123456789)"),
    "add_alpha_inplace": ([(1, -2, 2), (2, -2, 2)], "a.clone().add_(b, alpha=0.37)"),
    "sub_alpha": ([(3, -2, 2), (4, -2, 2)], "torch.sub(a, b, alpha=0.37)"),
    "add_int_alpha": ([(5, -2, 2), (6, -2, 2)], "torch.add(a, b, alpha=3)"),
    "lerp_small": ([(7, -2, 2), (8, -2, 2)], "a.lerp(b, 1 - 0.9)"),
    "lerp_big": ([(9, -2, 2), (10, -2, 2)], "a.clone().lerp_(b, 0.7)"),
    "lerp_tensor_weight": ([(11, -2, 2), (12, -2, 2), (13, 0, 1)], "torch.lerp(a, b, c)"),
    "addcmul": ([(14, -2, 2), (15, -2, 2), (16, -2, 2)], "torch.addcmul(a, b, c, value=1 - 0.999)"),
    "addcmul_square": ([(17, 0, 2), (18, -2, 2)], "a.clone().addcmul_(b, b, value=1)"),
    "addcmul_neg": ([(19, -2, 2), (20, -2, 2), (21, -2, 2)], "torch.addcmul(a, b, c, value=-1)"),
    "addcdiv": ([(22, -2, 2), (23, -2, 2), (24, 0.5, 2)], "a.clone().addcdiv_(b, c, value=-0.00123)"),
    "addcdiv_value1": ([(25, -2, 2), (26, -2, 2), (27, 0.5, 2)], "torch.addcdiv(a, b, c)"),
    "mul_scalar": ([(28, -2, 2)], "a.clone().mul_(0.999)"),
    "div_scalar": ([(29, -2, 2)], "a / 0.9995"),
    "add_scalar": ([(30, 0, 2)], "a.clone().add_(1e-8)"),
}


def record() -> dict:
    out = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(), "cases": []}
    for name, (operands, expr) in CASES.items():
        for dtype in ("float32", "float64"):
            for n in SIZES:
                arrs = [values(n, salt, lo, hi, dtype) for salt, lo, hi in operands]
                env = dict(zip("abc", (torch.from_numpy(a.copy()) for a in arrs)), torch=torch)
                r = eval(expr, env).numpy()  # noqa: S307 - the recorder's own fixed expressions
                data = r.tobytes()
                entry = {"name": name, "dtype": dtype, "n": n, "operands": operands, "expr": expr}
                if n <= SMALL:
                    entry["hex"] = data.hex()
                else:
                    entry["sha256"] = hashlib.sha256(data).hexdigest()
                out["cases"].append(entry)
    return out


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
