"""Record PyTorch's exact bytes for float32 matrix products (oneMKL sgemm): tests/ops/data/gemm_cases.json.

    python tests/ops/record_gemm.py

Each case is an (M x K) @ (K x N) ``mm``, either operand possibly a transposed view (``ta``/``tb``: the
operand is the ``.t()`` of a contiguous (K x M) / (N x K) tensor, as in ``mm``'s backward), plus a few
through ``matmul`` and ``@`` of n-d operands that PyTorch folds into one ``mm``.  The shapes cover both
kernels of gradcli.ops.gemm_order (the FMA kernel and its k blocks: one up to 192, two halves up to 385,
blocks of 192 above; the small kernel and its misaligned rows; the last M % 4 rows), both real_code
snippets' products, transposed operands, and addmm / F.linear with a bias (beta = 1).  Inputs are a fixed function of the element index
(:func:`values`, also in test_gemm_order.py); the exact bytes are stored (hex) for small results, a
SHA-256 for larger ones.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 and MKL_ENABLE_INSTRUCTIONS=AVX2 (gradcli.host.pin_torch) and
2 threads, as the other recorders: MKL splits a product between its threads, and with 1 thread the last
M % 4 rows of an M < 12 product take the FMA kernel instead of the small one.
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

OUT = Path(__file__).with_name("data") / "gemm_cases.json"
SMALL = 64  # results up to this many elements store their bytes, larger ones a hash


def values(n: int, salt: int) -> np.ndarray:
    """n float32 values in [-2, 2): a multiplicative hash of the index (the same in the recorder and the test)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (-2.0 + 4.0 * u).astype(np.float32)


#: (M, K, N, ta, tb): the FMA kernel, its k blocks and row groups; the small kernel and its peeled rows
MM_CASES = [
    # the FMA kernel (N >= 12, M >= 4): k blocks [K], halves, 192s
    (16, 16, 16, False, False), (8, 100, 16, False, False), (16, 192, 16, False, False),
    (8, 193, 16, False, False), (8, 250, 24, False, False), (12, 385, 13, False, False),
    (8, 386, 16, False, False), (4, 577, 24, False, False), (32, 1000, 40, False, False),
    (27, 212, 23, False, False), (13, 150, 29, False, False), (64, 10, 100, False, True),
    (100, 64, 12, True, False), (40, 300, 50, True, True), (64, 64, 64, False, False),
    # the last M % 4 rows: the FMA kernel from M = 12, the small one below (K >= 19)
    (6, 100, 16, False, False), (7, 59, 20, False, False), (11, 50, 23, False, False),
    (5, 300, 64, True, False), (13, 100, 13, False, False), (23, 40, 30, False, True),
    # the small kernel (N < 12 or M < 4), rows of C off a 16-byte boundary
    (64, 784, 10, False, False), (32, 784, 10, False, False), (784, 64, 10, True, False),
    (784, 32, 10, True, False), (64, 100, 10, False, False), (100, 64, 10, True, False),
    (64, 100, 2, False, False), (64, 100, 3, False, False), (64, 100, 4, False, False),
    (64, 100, 5, False, False), (64, 100, 6, False, False), (64, 100, 7, False, False),
    (64, 100, 9, False, False), (64, 100, 11, False, False), (3, 100, 20, False, False),
    (1, 50, 5, False, False), (1, 300, 64, False, False), (2, 3, 4, False, False), (5, 7, 3, False, False),
    (8, 8, 8, False, False), (3, 7, 12, False, False), (2, 1000, 33, False, False),
    # larger products, up to the caps: "learning PyTorch with examples" (64 x 1000 x 100 and its
    # backward), an MNIST layer, the small kernel over many rows and a long k
    (64, 1000, 100, False, False), (1000, 64, 100, True, False), (64, 100, 1000, False, True),
    (64, 784, 128, False, False), (256, 512, 256, False, False), (5000, 300, 10, False, False),
    (3, 20000, 100, False, False),
    # the small kernel with a transposed right operand (its dot-product form): 4 and 8 lanes, a k tail,
    # rows off 16-byte boundaries (odd k), fewer than 4 rows, the last M % 4 rows of an FMA product
    (32, 128, 10, False, True), (16, 129, 8, False, True), (64, 7, 10, False, True), (32, 37, 3, False, True),
    (3, 64, 128, False, True), (2, 100, 20, False, True), (6, 100, 16, False, True), (11, 50, 23, False, True),
    (64, 784, 10, False, True), (100, 64, 5, False, True),
]

#: n-d products PyTorch folds into one mm (matmul's should_fold), and @ of 2-d operands
FOLD_CASES = [
    ("matmul", (2, 32, 50), (50, 10)),
    ("matmul", (3, 4, 100), (100, 16)),
    ("rmatmul", (20, 30), (30, 12)),
]


#: addmm / F.linear with a bias (beta = alpha = 1), in the FMA kernel's shapes: (kind, M, K, N)
ADDMM_CASES = [
    ("linear", 32, 64, 128), ("linear", 16, 300, 12), ("linear", 13, 50, 20), ("linear", 64, 1000, 16),
    ("addmm_row", 8, 193, 16), ("addmm_matrix", 12, 100, 30), ("addmm_col", 16, 40, 64),
    ("linear_3d", 4, 64, 32),
    # the small kernel with a bias: F.linear to fewer than 12 features (added last), addmm (sums from it)
    ("linear", 32, 128, 10), ("linear", 64, 784, 10), ("linear", 16, 129, 8), ("linear", 3, 64, 128),
    ("linear", 6, 100, 16), ("linear_offset", 32, 130, 10), ("addmm_row", 32, 128, 10),
    ("addmm_matrix", 6, 100, 16), ("addmm_col", 3, 64, 128),
]


def addmm_operands(kind: str, m: int, k: int, n: int):
    """(input, mat1 / x, mat2 / weight) as numpy arrays for an ADDMM_CASES entry (the test builds the same)."""
    x = values(m * k, 5).reshape(m, k)
    if kind.startswith("linear"):
        w = values(n * k, 6).reshape(n, k)
        bias = values(n, 7)
        if kind == "linear_3d":
            x = values(2 * m * k, 5).reshape(2, m, k)
        if kind == "linear_offset":  # x a view one element into its storage: rows off 16-byte boundaries
            x = values(m * k + 1, 5)[1:].reshape(m, k)
        return bias, x, w
    b = values(k * n, 6).reshape(k, n)
    shape = {"addmm_row": (n,), "addmm_matrix": (m, n), "addmm_col": (m, 1)}[kind]
    return values(int(np.prod(shape)), 7).reshape(shape), x, b


def _operand(rows: int, cols: int, transposed: bool, salt: int) -> np.ndarray:
    if transposed:
        return values(rows * cols, salt).reshape(cols, rows).T
    return values(rows * cols, salt).reshape(rows, cols)


def _entry(r: np.ndarray) -> dict:
    data = np.ascontiguousarray(r).tobytes()
    if r.size <= SMALL:
        return {"hex": data.hex()}
    return {"sha256": hashlib.sha256(data).hexdigest()}


def record() -> dict:
    out = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(),
           "threads": torch.get_num_threads(), "mm": [], "fold": [], "addmm": []}
    for m, k, n, ta, tb in MM_CASES:
        a = torch.from_numpy(_operand(m, k, ta, 1))
        b = torch.from_numpy(_operand(k, n, tb, 2))
        out["mm"].append({"shape": [m, k, n], "ta": ta, "tb": tb, **_entry(a.mm(b).numpy())})
    for kind, sa, sb in FOLD_CASES:
        a = torch.from_numpy(values(int(np.prod(sa)), 3).reshape(sa))
        b = torch.from_numpy(values(int(np.prod(sb)), 4).reshape(sb))
        r = torch.matmul(a, b) if kind == "matmul" else a @ b
        out["fold"].append({"kind": kind, "a": list(sa), "b": list(sb), **_entry(r.numpy())})
    for kind, m, k, n in ADDMM_CASES:
        c, x, w = (torch.from_numpy(v) for v in addmm_operands(kind, m, k, n))
        if kind.startswith("linear"):
            r = torch.nn.functional.linear(x, w, c)
        else:
            r = torch.addmm(c, x, w)
        out["addmm"].append({"kind": kind, "shape": [m, k, n], **_entry(r.numpy())})
    return out


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
