"""Record what PyTorch does for the ops of linalg / reduction_more / nn / misc: tests/ops/data/ops_cases.json.

Needs PyTorch (2.13.0 CPU is the reference).  Run from the repository root:

    python tests/ops/record_ops.py

Each case is a few lines of PyTorch code with literal inputs (so gradcli sees the same numbers); the recorded
expectation is what :func:`ops_harness.run_case` sees under real PyTorch: values, dtype, grad_fn, the graph,
gradients for a fixed cotangent, second derivatives for ``double`` cases, warnings and error kinds.
``test_ops_recorded.py`` replays every case against gradcli without PyTorch.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ops_harness import run_case, torch_error_kind

OUT = os.path.join(HERE, "data", "ops_cases.json")

_rng = np.random.default_rng(20260101)


def _fmt(v: float) -> str:
    if math.isnan(v):
        return "float('nan')"
    if v in (float("inf"), float("-inf")):
        return "float('inf')" if v > 0 else "-float('inf')"
    s = repr(float(v))
    return s


def _nested(a) -> str:
    if isinstance(a, np.ndarray) and a.ndim == 0:
        return _fmt(float(a))
    if isinstance(a, (list, np.ndarray)) and (len(a) == 0 or not isinstance(a[0], (list, np.ndarray))):
        return "[" + ", ".join(_fmt(float(x)) for x in a) + "]"
    return "[" + ", ".join(_nested(x) for x in a) + "]"


def lit(shape=(), dtype="float32", rg=True, lo=-2.0, hi=2.0, values=None, ties=False, decimals=2) -> str:
    """A torch.tensor(...) literal with rounded random values (or given values)."""
    if values is None:
        vals = np.round(_rng.uniform(lo, hi, size=shape), decimals)
        if ties and vals.size > 1:
            flat = vals.reshape(-1)
            flat[1] = flat[0]
            vals = flat.reshape(shape)
        data = _nested(np.asarray(vals)) if shape else _fmt(float(vals))
    else:
        data = repr(values)
    parts = [data]
    if dtype != "float32":
        parts.append(f"dtype=torch.{dtype}")
    if rg:
        parts.append("requires_grad=True")
    return "torch.tensor(" + ", ".join(parts) + ")"


CASES: list = []


def case(cid: str, code: str, inputs=(), out: str = "y", double: bool = False) -> None:
    """Add a case.  Every case records second derivatives (``create_graph=True``) and the grad_fn of each
    first-order gradient; ``double=True`` marks the cases written for second order in the first place."""
    del double
    CASES.append({"id": cid, "code": code.strip() + "\n", "out": out, "inputs": list(inputs), "double": True})


# --- linalg ----------------------------------------------------------------------------------------------------

MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 4)), ((4, 2, 3), (3, 2)),
                 ((4, 2, 3), (3,)), ((3,), (4, 3, 2)), ((2, 3), (4, 3, 2)), ((4, 2, 3), (4, 3, 2)),
                 ((2, 1, 2, 3), (4, 3, 2)), ((1, 2, 3), (4, 3, 2)), ((4, 2, 3), (1, 3, 2)), ((4, 2, 3), (1, 1, 3, 2)),
                 ((4, 1, 3), (3, 1)), ((1, 3), (3,)), ((2, 2, 3), (2, 3, 2))]
for sa, sb in MATMUL_SHAPES:
    for rg in ((True, True), (True, False), (False, True)):
        tag = "x".join(map(str, sa)) + "@" + "x".join(map(str, sb)) + f"/{int(rg[0])}{int(rg[1])}"
        case(f"matmul/{tag}", f"a = {lit(sa, rg=rg[0])}\nb = {lit(sb, rg=rg[1])}\ny = a @ b",
             [n for n, r in zip("ab", rg) if r], double=rg == (True, True))
for sa, sb in (((2, 3), (3, 4)), ((4, 2, 3), (3, 2)), ((3,), (4, 3, 2))):
    tag = "x".join(map(str, sa)) + "@" + "x".join(map(str, sb))
    case(f"matmul/f64/{tag}", f"a = {lit(sa, 'float64')}\nb = {lit(sb, 'float64')}\ny = torch.matmul(a, b)", "ab",
         double=True)
case("matmul/transposed_operand", f"a = {lit((3, 4))}\nb = {lit((2, 3, 4))}\ny = torch.matmul(b, a.t())", "ab")
case("matmul/method_transposed_batch", f"a = {lit((2, 4, 3))}\nb = {lit((3, 2))}\ny = a.transpose(1, 2).matmul(a)",
     "a")
case("matmul/int", "a = torch.tensor([[1, 2], [3, 4]])\nb = torch.tensor([[1, 0], [2, 1]])\ny = a @ b")
case("mm", f"a = {lit((2, 3))}\nb = {lit((3, 4))}\ny = torch.mm(a, b)", "ab", double=True)
case("mm/method", f"a = {lit((2, 3), 'float64')}\nb = {lit((3, 1), 'float64')}\ny = a.mm(b)", "ab")
case("mv", f"a = {lit((2, 3))}\nb = {lit((3,))}\ny = torch.mv(a, b)", "ab", double=True)
case("dot", f"a = {lit((4,))}\nb = {lit((4,))}\ny = torch.dot(a, b)", "ab", double=True)
case("bmm", f"a = {lit((2, 2, 3))}\nb = {lit((2, 3, 4))}\ny = torch.bmm(a, b)", "ab", double=True)
case("outer", f"a = {lit((3,))}\nb = {lit((2,))}\ny = torch.outer(a, b)", "ab", double=True)
case("outer/ger", f"a = {lit((3,), 'float64')}\nb = {lit((2,), 'float64')}\ny = a.outer(b)", "ab")
case("addmm", f"c = {lit((2,))}\na = {lit((3, 4))}\nb = {lit((4, 2))}\ny = torch.addmm(c, a, b)", "cab", double=True)
case("addmm/beta_alpha", f"c = {lit((3, 2))}\na = {lit((3, 4))}\nb = {lit((4, 2))}\n"
     "y = torch.addmm(c, a, b, beta=0.5, alpha=2.0)", "cab", double=True)
case("addmm/beta0_nan", f"c = torch.full((3, 2), float('nan'))\na = {lit((3, 4))}\nb = {lit((4, 2))}\n"
     "y = torch.addmm(c, a, b, beta=0)", "ab")
for shp in ((3,), (4, 3), (2, 4, 3), (2, 2, 2, 3)):
    tag = "x".join(map(str, shp))
    case(f"linear/bias/{tag}", f"x = {lit(shp)}\nW = {lit((2, 3))}\nb = {lit((2,))}\ny = F.linear(x, W, b)", "xWb",
         double=True)
    case(f"linear/nobias/{tag}", f"x = {lit(shp)}\nW = {lit((2, 3))}\ny = F.linear(x, W)", "xW")
    case(f"linear/const_x/{tag}", f"x = {lit(shp, rg=False)}\nW = {lit((2, 3))}\nb = {lit((2,))}\n"
         "y = F.linear(x, W, b)", "Wb")
case("linear/noncontig2d", f"x = {lit((3, 4))}\nW = {lit((2, 4))}\nb = {lit((2,))}\ny = F.linear(x.t(), W.t().t(), b)"
     .replace("W.t().t()", "torch.ones(2, 3, requires_grad=True)"), "xb")
case("linear/noncontig3d", f"x = {lit((2, 3, 4))}\nW = {lit((2, 4))}\nb = {lit((2,))}\n"
     "y = F.linear(x.transpose(1, 2), torch.ones(2, 3, requires_grad=True) * W[:, :3], b)", "xWb")
case("linear/bias0d", f"x = {lit((4, 3))}\nW = {lit((2, 3))}\nb = {lit(())}\ny = F.linear(x, W, b)", "xWb")
case("linear/bias0d_1d", f"x = {lit((3,))}\nW = {lit((2, 3))}\nb = {lit(())}\ny = F.linear(x, W, b)", "xWb")
case("linear/f64", f"x = {lit((2, 3), 'float64')}\nW = {lit((2, 3), 'float64')}\nb = {lit((2,), 'float64')}\n"
     "y = F.linear(x, W, b)", "xWb", double=True)
# errors
for cid, code in [
    ("err/mm_shapes", "y = torch.mm(torch.ones(2, 4), torch.ones(3, 4))"),
    ("err/mm_not_matrix", "y = torch.mm(torch.ones(2, 4), torch.ones(4))"),
    ("err/mm_self_not_matrix", "y = torch.mm(torch.ones(3), torch.ones(3, 4))"),
    ("err/mm_dtype", "y = torch.mm(torch.ones(2, 3, dtype=torch.float64), torch.ones(3, 2))"),
    ("err/mv_size", "y = torch.mv(torch.ones(2, 3), torch.ones(4))"),
    ("err/mv_dims", "y = torch.mv(torch.ones(2, 3), torch.ones(3, 1))"),
    ("err/dot_size", "y = torch.dot(torch.ones(3), torch.ones(4))"),
    ("err/dot_dims", "y = torch.dot(torch.ones(3, 1), torch.ones(3))"),
    ("err/dot_dtype", "y = torch.dot(torch.ones(3, dtype=torch.float64), torch.ones(3))"),
    ("err/bmm_shape", "y = torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 4, 5))"),
    ("err/bmm_batch", "y = torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 5))"),
    ("err/bmm_dims", "y = torch.bmm(torch.ones(2, 3), torch.ones(3, 3, 5))"),
    ("err/matmul_shapes", "y = torch.ones(2, 3) @ torch.ones(4, 5)"),
    ("err/matmul_1d_2d", "y = torch.ones(3) @ torch.ones(4, 5)"),
    ("err/matmul_fold", "y = torch.ones(5, 2, 3) @ torch.ones(4, 5)"),
    ("err/matmul_fold_vec", "y = torch.ones(5, 2, 3) @ torch.ones(4)"),
    ("err/matmul_batch", "y = torch.ones(5, 2, 3) @ torch.ones(4, 3, 5)"),
    ("err/matmul_bmm", "y = torch.ones(5, 2, 3) @ torch.ones(5, 4, 5)"),
    ("err/matmul_0d", "y = torch.tensor(2.0) @ torch.ones(3)"),
    ("err/matmul_int_operand", "y = torch.ones(2, 3) @ 2"),
    ("err/matmul_dtype", "y = torch.matmul(torch.ones(2, 3, dtype=torch.long), torch.ones(3, 2))"),
    ("err/outer_2d", "y = torch.outer(torch.ones(3, 2), torch.ones(3))"),
    ("err/addmm_shapes", "y = torch.addmm(torch.ones(2), torch.ones(2, 4), torch.ones(3, 4))"),
    ("err/addmm_bias", "y = torch.addmm(torch.ones(3), torch.ones(2, 4), torch.ones(4, 2))"),
    ("err/linear_shapes", "y = F.linear(torch.ones(2, 4), torch.ones(3, 5))"),
    ("err/linear_bias", "y = F.linear(torch.ones(2, 4), torch.ones(3, 4), torch.ones(2))"),
    ("err/linear_1d", "y = F.linear(torch.ones(4), torch.ones(3, 5))"),
]:
    case(cid, code)

# --- reductions ------------------------------------------------------------------------------------------------------

X23 = "[[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]"
case("prod/full", f"x = {lit((2, 3), lo=0.5, hi=2.0)}\ny = x.prod()", "x", double=True)
case("prod/full_one_zero", "x = torch.tensor([0.0, 2.0, 3.0, -1.5], requires_grad=True)\ny = torch.prod(x)", "x",
     double=True)
case("prod/full_two_zeros", "x = torch.tensor([0.0, 2.0, 0.0, -1.5], requires_grad=True)\ny = x.prod()", "x",
     double=True)
case("prod/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.prod(1)", "x", double=True)
case("prod/dim_keepdim", f"x = torch.tensor({X23}, requires_grad=True)\ny = torch.prod(x, 0, keepdim=True)", "x")
case("prod/dim_zeros", "x = torch.tensor([[0.0, 2.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 3.0]], requires_grad=True)\n"
     "y = x.prod(1)", "x", double=True)
case("prod/dtype", f"x = {lit((2, 3))}\ny = x.prod(dtype=torch.float64)", "x")
case("prod/f64", f"x = {lit((3, 2), 'float64')}\ny = x.prod(0)", "x", double=True)
case("prod/int", "x = torch.tensor([1, 2, 3])\ny = x.prod()")
case("prod/bool", "x = torch.tensor([True, True])\ny = x.prod()")
case("prod/0d", "x = torch.tensor(3.0, requires_grad=True)\ny = x.prod(0)", "x")
case("max/full_ties", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.max()", "x", double=True)
case("min/full", f"x = torch.tensor({X23}, requires_grad=True)\ny = torch.min(x)", "x")
case("max/full_nan", "x = torch.tensor([1.0, float('nan'), 3.0], requires_grad=True)\ny = x.max()", "x")
case("max/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.max(1)", "x", double=True)
case("max/dim_kw_keepdim", f"x = torch.tensor({X23}, requires_grad=True)\ny = torch.max(x, dim=0, keepdim=True)", "x")
case("max/dim_values", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.max(dim=1).values", "x")
case("max/dim_unpack", f"x = torch.tensor({X23}, requires_grad=True)\nv, i = x.max(1)\ny = v * i", "x")
case("max/dim_index", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.max(-1)[0]", "x")
case("max/dim_indices", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.max(-1).indices")
case("min/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.min(dim=1)", "x")
case("min/dim_ties_first", "x = torch.tensor([[3.0, 1.0, 1.0], [0.0, 0.0, 0.0]], requires_grad=True)\ny = x.min(1)",
     "x")
case("max/dim_nan", "x = torch.tensor([[1.0, float('nan'), 3.0]], requires_grad=True)\ny = x.max(1)", "x")
case("max/dim_3d", f"x = {lit((2, 3, 4), ties=True)}\ny = x.max(1, True)", "x")
case("max/other", f"x = torch.tensor({X23}, requires_grad=True)\nz = {lit((3,))}\ny = x.max(z)", "xz")
case("min/other", f"x = torch.tensor({X23}, requires_grad=True)\ny = torch.min(x, torch.ones(3))", "x")
case("max/0d_dim", "x = torch.tensor(3.0, requires_grad=True)\ny = x.max(0)", "x")
case("max/int", "x = torch.tensor([[1, 5, 5]])\ny = x.max(1)")
case("max/int_full", "x = torch.tensor([1, 5, 5])\ny = x.max()")
case("amax/full", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.amax()", "x", double=True)
case("amax/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.amax(1)", "x", double=True)
case("amax/dims_keepdim", f"x = {lit((2, 3, 2), ties=True)}\ny = torch.amax(x, (0, 2), True)", "x")
case("amin/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = torch.amin(x, dim=1)", "x")
case("amin/all", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.amin((0, 1))", "x")
case("amax/empty_list", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = x.amax(dim=[])", "x")
case("argmax/full", f"x = torch.tensor({X23})\ny = x.argmax()")
case("argmax/dim", f"x = torch.tensor({X23})\ny = x.argmax(1, keepdim=True)")
case("argmin/dim", f"x = torch.tensor({X23})\ny = torch.argmin(x, dim=0)")
for p in ("2", "1", "float('inf')", "-float('inf')", "0", "3", "0.5", "-1", "'fro'"):
    case(f"norm/p={p}", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.norm(p={p})", "x",
         double=p in ("2", "1", "3"))
    case(f"norm/p={p}/dim", f"x = {lit((3, 4))}\ny = torch.norm(x, p={p}, dim=1)", "x")
case("norm/dim_keepdim", f"x = {lit((2, 3), 'float64')}\ny = x.norm(dim=0, keepdim=True)", "x", double=True)
case("norm/dims_tuple", f"x = {lit((2, 3, 2))}\ny = x.norm(2, (0, 2))", "x")
case("norm/zero_vector", "x = torch.zeros(3, requires_grad=True)\ny = x.norm()", "x")
case("norm/zero_vector_p1", "x = torch.zeros(3, requires_grad=True)\ny = x.norm(p=1)", "x")
case("norm/zero_vector_p3", "x = torch.zeros(3, requires_grad=True)\ny = x.norm(p=3)", "x")
case("norm/zero_row", "x = torch.tensor([[3.0, 4.0], [0.0, 0.0]], requires_grad=True)\ny = x.norm(dim=1)", "x")
case("norm/inf_ties", "x = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)\ny = x.norm(p=float('inf'))", "x")
case("norm/dtype", f"x = {lit((3,))}\ny = x.norm(dtype=torch.float64)", "x")
case("norm/0d", "x = torch.tensor(-3.0, requires_grad=True)\ny = x.norm(dim=0)", "x")
case("norm/torch_fn", "x = torch.tensor([3.0, 4.0], requires_grad=True)\nz = torch.zeros(2, requires_grad=True)\n"
     "y = x.norm() + torch.norm(z)", "xz")
case("var/full", f"x = {lit((2, 3))}\ny = x.var()", "x", double=True)
case("var/dim", f"x = {lit((2, 3))}\ny = x.var(1)", "x", double=True)
case("var/dim_keepdim", f"x = {lit((2, 3, 2), 'float64')}\ny = torch.var(x, (0, 2), keepdim=True)", "x")
case("var/unbiased_false", f"x = {lit((2, 3))}\ny = x.var(unbiased=False)", "x")
case("var/positional_unbiased", f"x = {lit((2, 3))}\ny = x.var(1, False)", "x")
case("var/bool_arg", f"x = {lit((2, 3))}\ny = x.var(False)", "x")
case("var/correction0", f"x = {lit((2, 3))}\ny = x.var(dim=1, correction=0)", "x")
case("var/correction2", f"x = {lit((4,))}\ny = x.var(correction=2)", "x")
case("var/one_element", "x = torch.tensor([2.0], requires_grad=True)\ny = x.var()", "x")
case("var/dof_negative", "x = torch.tensor([2.0, 3.0], requires_grad=True)\ny = x.var(correction=3)", "x")
case("std/full", f"x = {lit((2, 3))}\ny = x.std()", "x", double=True)
case("std/dim_keepdim", f"x = {lit((2, 3))}\ny = x.std(1, keepdim=True)", "x", double=True)
case("std/constant", "x = torch.tensor([2.0, 2.0], requires_grad=True)\ny = x.std()", "x")
case("std/one_element_dim", "x = torch.tensor([[2.0, 3.0]], requires_grad=True)\ny = x.std(0)", "x")
case("std/f64", f"x = {lit((3, 3), 'float64')}\ny = torch.std(x, dim=0, correction=0)", "x", double=True)
case("logsumexp/dim", f"x = torch.tensor({X23}, requires_grad=True)\ny = x.logsumexp(1)", "x", double=True)
case("logsumexp/dims_keepdim", f"x = {lit((2, 3, 2))}\ny = torch.logsumexp(x, (0, 2), keepdim=True)", "x",
     double=True)
case("logsumexp/large", "x = torch.tensor([1000.0, 1000.0, 990.0], requires_grad=True)\ny = x.logsumexp(0)", "x")
case("logsumexp/inf", "x = torch.tensor([[float('inf'), 1.0], [-float('inf'), -float('inf')]], "
     "requires_grad=True)\ny = x.logsumexp(1)", "x")
case("logsumexp/int", "x = torch.tensor([1, 2, 3])\ny = x.logsumexp(0)")
case("logsumexp/0d", "x = torch.tensor(3.0, requires_grad=True)\ny = x.logsumexp(0)", "x")
case("cumsum/dim1", f"x = {lit((2, 3))}\ny = x.cumsum(1)", "x", double=True)
case("cumsum/dim0_f64", f"x = {lit((3, 2), 'float64')}\ny = torch.cumsum(x, dim=0)", "x")
case("cumsum/neg_dim", f"x = {lit((2, 3))}\ny = x.cumsum(-1)", "x")
case("cumsum/int", "x = torch.tensor([1, 2, 3], dtype=torch.int32)\ny = x.cumsum(0)")
case("cumsum/dtype", f"x = {lit((3,))}\ny = x.cumsum(0, dtype=torch.float64)", "x")
case("cumprod/dim1", f"x = {lit((2, 3), lo=0.5, hi=2)}\ny = x.cumprod(1)", "x", double=True)
case("cumprod/zeros", "x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0], [0.0, 2.0, 0.0]], requires_grad=True)\n"
     "y = x.cumprod(1)", "x")
for cid, code in [
    ("err/norm_int", "y = torch.tensor([1, 2]).norm()"),
    ("err/var_int", "y = torch.tensor([1, 2]).var()"),
    ("err/max_empty", "y = torch.tensor([]).max()"),
    ("err/amax_empty", "y = torch.tensor([]).amax()"),
    ("err/max_dim_empty", "y = torch.zeros(0, 3).max(0)"),
    ("err/max_dim_range", "y = torch.tensor([1.0, 2.0]).max(2)"),
    ("err/max_dim_tuple", "y = torch.tensor([1.0, 2.0]).max(dim=(0,))"),
    ("err/prod_dim_tuple", "y = torch.ones(2, 3).prod(dim=(0, 1))"),
    ("err/logsumexp_no_dim", "y = torch.ones(2).logsumexp()"),
    ("err/cumsum_no_dim", "y = torch.ones(2).cumsum()"),
    ("err/var_unbiased_and_correction", "y = torch.ones(3).var(0, unbiased=True, correction=0)"),
    ("err/norm_nuc", "y = torch.ones(2, 2).norm(p='nuc')"),
]:
    if cid == "err/norm_nuc":
        continue  # gradcli reports 'unsupported' for the nuclear norm (deliberately)
    case(cid, code)

# --- nn: activations ------------------------------------------------------------------------------------------------------

ACT_X = "torch.tensor([[0.3, -0.7, 0.0], [2.0, -3.0, 25.0]], requires_grad=True)"
for cid, expr in [
    ("relu", "F.relu(x)"), ("relu/torch", "torch.relu(x)"), ("relu/method", "x.relu()"),
    ("leaky_relu", "F.leaky_relu(x)"), ("leaky_relu/0.2", "F.leaky_relu(x, 0.2)"),
    ("leaky_relu/kw", "F.leaky_relu(x, negative_slope=-0.5)"),
    ("gelu", "F.gelu(x)"), ("gelu/tanh", "F.gelu(x, approximate='tanh')"),
    ("softplus", "F.softplus(x)"), ("softplus/beta_threshold", "F.softplus(x, beta=2, threshold=1)"),
    ("softplus/neg_beta", "F.softplus(x, beta=-1)"),
    ("silu", "F.silu(x)"), ("sigmoid/F", "F.sigmoid(x)"), ("tanh/F", "F.tanh(x)"),
    ("softmax/dim1", "F.softmax(x, dim=1)"), ("softmax/dim0", "F.softmax(x, 0)"),
    ("softmax/method", "x.softmax(1)"), ("softmax/torch", "torch.softmax(x, -1)"),
    ("softmax/dtype", "F.softmax(x, dim=1, dtype=torch.float64)"),
    ("log_softmax/dim0", "F.log_softmax(x, dim=0)"), ("log_softmax/torch", "torch.log_softmax(x, -1)"),
    ("log_softmax/method", "x.log_softmax(dim=1)"),
    ("softmax/implicit", "F.softmax(x)"), ("log_softmax/implicit", "F.log_softmax(x)"),
]:
    case(f"act/{cid}", f"x = {ACT_X}\ny = {expr}", "x", double=cid in ("gelu", "gelu/tanh", "softplus", "silu", "relu",
                                                                         "softmax/dim1", "log_softmax/dim0",
                                                                         "leaky_relu/0.2"))
KINK_X = "torch.tensor([[-4.0, -3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 3.0, 6.0, 7.0]], requires_grad=True)"
for cid, expr in [
    ("hardtanh", "F.hardtanh(x)"), ("hardtanh/bounds", "F.hardtanh(x, -0.5, 3.0)"), ("relu6", "F.relu6(x)"),
    ("elu", "F.elu(x)"), ("elu/alpha", "F.elu(x, alpha=0.5)"), ("selu", "F.selu(x)"), ("selu/torch", "torch.selu(x)"),
    ("celu", "F.celu(x, alpha=2.0)"), ("logsigmoid", "F.logsigmoid(x)"), ("mish", "F.mish(x)"),
    ("hardsigmoid", "F.hardsigmoid(x)"), ("hardswish", "F.hardswish(x)"), ("softsign", "F.softsign(x)"),
    ("tanhshrink", "F.tanhshrink(x)"), ("softmin", "F.softmin(x, dim=1)"), ("softmin/implicit", "F.softmin(x)"),
    ("normalize", "F.normalize(x)"), ("normalize/p1_dim0", "F.normalize(x, p=1, dim=0)"),
]:
    case(f"act/{cid}", f"x = {KINK_X}\ny = {expr}", "x")
case("act/normalize/zero_row", "x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)\ny = F.normalize(x)",
     "x")
case("act/hardtanh/inplace", f"x = {lit((4,))}\nh = x * 2\ny = F.hardtanh(h, inplace=True)", "x")
case("act/elu/inplace", f"x = {lit((4,))}\nh = x * 2\ny = F.elu(h, inplace=True)", "x")
case("act/one_hot", "y = F.one_hot(torch.tensor([0, 2, 1]))")
case("act/one_hot/num_classes", "y = F.one_hot(torch.tensor([[0], [2]]), 4)")
for cid, code in [
    ("err/one_hot_float", "y = F.one_hot(torch.tensor([0.0, 1.0]))"),
    ("err/one_hot_negative", "y = F.one_hot(torch.tensor([-1, 1]))"),
    ("err/one_hot_too_big", "y = F.one_hot(torch.tensor([3]), 2)"),
    ("err/one_hot_empty", "y = F.one_hot(torch.tensor([], dtype=torch.long))"),
    ("err/hardtanh_bounds", "y = F.hardtanh(torch.ones(2), 2.0, 1.0)"),
]:
    case(cid, code)
case("act/gelu/f64", f"x = {lit((5,), 'float64', lo=-4, hi=4)}\ny = F.gelu(x)", "x", double=True)
case("act/softplus/large", "x = torch.tensor([20.0, 20.5, 19.9, -100.0], requires_grad=True)\ny = F.softplus(x)", "x")
case("act/leaky_relu/zero", "x = torch.tensor([0.0], requires_grad=True)\ny = F.leaky_relu(x)", "x")
case("act/relu/inplace", f"x = {lit((4,))}\nh = x * 2\ny = F.relu(h, inplace=True)", "x")
case("act/leaky_relu/inplace", f"x = {lit((4,))}\nh = x * 2\ny = F.leaky_relu(h, 0.1, inplace=True)", "x")
case("act/silu/inplace", f"x = {lit((4,))}\nh = x * 2\ny = F.silu(h, inplace=True)", "x")
case("act/softmax/implicit_3d", f"x = {lit((2, 2, 3))}\ny = F.softmax(x)", "x")
case("act/softmax/0d", "x = torch.tensor(2.0, requires_grad=True)\ny = F.softmax(x, dim=0)", "x")
case("act/log_softmax/0d", "x = torch.tensor(2.0, requires_grad=True)\ny = F.log_softmax(x, dim=0)", "x")
case("act/log_softmax/extreme", "x = torch.tensor([-1e4, 1e4, -float('inf')], requires_grad=True)\n"
     "y = F.log_softmax(x, 0)", "x")
case("act/softmax/int_dtype", "x = torch.tensor([1, 2])\ny = torch.softmax(x, 0, dtype=torch.float32)")
case("act/softmax/f64", f"x = {lit((3, 4), 'float64')}\ny = F.softmax(x, dim=-1)", "x", double=True)
case("act/sigmoid/F_int", "x = torch.tensor([1, -2])\ny = F.sigmoid(x)")
for cid, code in [
    ("err/softmax_int", "y = F.softmax(torch.tensor([1, 2]), dim=0)"),
    ("err/leaky_int", "y = F.leaky_relu(torch.tensor([1, -2]))"),
    ("err/gelu_int", "y = F.gelu(torch.tensor([1, -2]))"),
    ("err/gelu_approx", "y = F.gelu(torch.ones(2), approximate='foo')"),
    ("err/softmax_dim", "y = F.softmax(torch.ones(2), dim=2)"),
    ("err/torch_softmax_no_dim", "y = torch.softmax(torch.ones(2, 3))"),
    ("err/relu_inplace_leaf", "x = torch.ones(3, requires_grad=True)\ny = F.relu(x, inplace=True)"),
]:
    case(cid, code)

# --- nn: losses ------------------------------------------------------------------------------------------------------

P23 = lit((2, 3))
T23 = lit((2, 3), rg=False)
for red in ("mean", "sum", "none"):
    case(f"mse/{red}", f"p = {P23}\nt = {T23}\ny = F.mse_loss(p, t, reduction='{red}')", "p", double=True)
    case(f"mse/{red}/target_grad", f"p = {P23}\nt = {lit((2, 3))}\ny = F.mse_loss(p, t, reduction='{red}')", "pt")
    case(f"l1/{red}", f"p = {P23}\nt = {T23}\ny = F.l1_loss(p, t, reduction='{red}')", "p")
    case(f"l1/{red}/target_grad", f"p = {P23}\nt = {lit((2, 3))}\ny = F.l1_loss(p, t, reduction='{red}')", "pt")
    case(f"mse/{red}/weight", f"p = {P23}\nt = {T23}\nw = {lit((2, 3), rg=False, lo=0.1, hi=2)}\n"
         f"y = F.mse_loss(p, t, reduction='{red}', weight=w)", "p")
    case(f"l1/{red}/weight", f"p = {P23}\nt = {T23}\nw = {lit((2, 3), rg=False, lo=0.1, hi=2)}\n"
         f"y = F.l1_loss(p, t, reduction='{red}', weight=w)", "p")
    bce_p = "torch.tensor([0.2, 0.9, 0.0, 1.0, 0.5], requires_grad=True)"
    bce_t = "torch.tensor([0.0, 1.0, 1.0, 0.0, 0.3])"
    case(f"bce/{red}", f"p = {bce_p}\nt = {bce_t}\ny = F.binary_cross_entropy(p, t, reduction='{red}')", "p")
    case(f"bce/{red}/weight", f"p = {bce_p}\nt = {bce_t}\n"
         f"y = F.binary_cross_entropy(p, t, weight=torch.tensor([1.0, 2.0, 3.0, 4.0, 0.5]), reduction='{red}')", "p")
    case(f"bce/{red}/smooth", f"p = {lit((2, 3), lo=0.05, hi=0.95)}\nt = {lit((2, 3), lo=0, hi=1)}\n"
         f"y = F.binary_cross_entropy(p, t, reduction='{red}')", "pt", double=True)
    z = "torch.tensor([-100.0, 0.5, 3.0, 200.0, -1.5], requires_grad=True)"
    zt = "torch.tensor([1.0, 0.0, 1.0, 0.0, 0.25])"
    case(f"bcel/{red}", f"z = {z}\nt = {zt}\ny = F.binary_cross_entropy_with_logits(z, t, reduction='{red}')", "z")
    case(f"bcel/{red}/weights", f"z = {z}\nt = {zt}\ny = F.binary_cross_entropy_with_logits(z, t, "
         f"weight=torch.tensor([1.0, 2.0, 3.0, 4.0, 0.5]), pos_weight=torch.tensor([2.0, 1.0, 0.5, 3.0, 1.5]), "
         f"reduction='{red}')", "z")
    case(f"bcel/{red}/target_grad", f"z = {lit((2, 3), lo=-3, hi=3)}\nt = {lit((2, 3), lo=0, hi=1)}\n"
         f"y = F.binary_cross_entropy_with_logits(z, t, reduction='{red}')", "zt", double=True)
    case(f"bcel/{red}/pos_weight_target_grad", f"z = {lit((2, 3), lo=-3, hi=3)}\nt = {lit((2, 3), lo=0, hi=1)}\n"
         f"y = F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor([0.5, 2.0, 1.0]), "
         f"reduction='{red}')", "zt", double=True)
case("mse/broadcast_warning", "p = torch.ones(3, requires_grad=True)\nt = torch.tensor([[1.0, 2.0, 0.5], "
     "[0.0, 1.0, 1.0]])\ny = F.mse_loss(p, t)", "p")
case("l1/broadcast_warning", "p = torch.ones(3, requires_grad=True)\nt = torch.tensor([[1.0, 2.0, 0.5], "
     "[0.0, 1.0, 1.0]])\ny = F.l1_loss(p, t)", "p")
case("l1/kink", "p = torch.tensor([1.0, 2.0], requires_grad=True)\ny = F.l1_loss(p, torch.tensor([1.0, 3.0]))", "p")
case("mse/legacy", "p = torch.tensor([1.0, 2.0], requires_grad=True)\n"
     "y = F.mse_loss(p, torch.tensor([0.0, 3.0]), size_average=False)", "p")
case("mse/f64", f"p = {lit((2, 3), 'float64')}\nt = {lit((2, 3), rg=False)}\ny = F.mse_loss(p, t)", "p")
case("l1/int_float", "p = torch.tensor([1, 2])\ny = F.l1_loss(p, torch.tensor([1.0, 3.0]))")
case("bcel/f64_input", "z = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)\n"
     "y = F.binary_cross_entropy_with_logits(z, torch.tensor([1.0, 0.0]))", "z")

L33 = "torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, 1.0, 1.0]], requires_grad=True)"
Y3 = "torch.tensor([0, 2, 1])"
W3 = "torch.tensor([1.0, 2.0, 0.5])"
CE_KW = ["", "reduction='sum'", "reduction='none'", f"weight={W3}", f"weight={W3}, reduction='sum'",
         f"weight={W3}, reduction='none'", "ignore_index=2", f"ignore_index=2, weight={W3}",
         "ignore_index=2, reduction='none'"]
LS_KW = ["label_smoothing=0.1", f"label_smoothing=0.2, weight={W3}", "label_smoothing=0.2, reduction='sum'",
         "label_smoothing=0.2, reduction='none'", f"label_smoothing=0.2, weight={W3}, reduction='none'",
         "label_smoothing=0.2, ignore_index=1", f"label_smoothing=0.2, ignore_index=1, weight={W3}",
         f"label_smoothing=0.3, weight={W3}, reduction='sum'"]
for i, kw in enumerate(CE_KW):
    sep = ", " if kw else ""
    case(f"ce/idx/{i}", f"L = {L33}\ny = F.cross_entropy(L, {Y3}{sep}{kw})", "L", double=i in (0, 3))
    case(f"nll/{i}", f"L = {L33}\ny = F.nll_loss(L, {Y3}{sep}{kw})", "L", double=i == 0)
for i, kw in enumerate(LS_KW):
    case(f"ce/ls/{i}", f"L = {L33}\ny = F.cross_entropy(L, {Y3}, {kw})", "L", double=i == 0)
P33 = "torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [0.3, 0.3, 0.4]])"
for i, kw in enumerate(["", "reduction='sum'", "reduction='none'", f"weight={W3}", "label_smoothing=0.1",
                        f"weight={W3}, reduction='none', label_smoothing=0.3"]):
    sep = ", " if kw else ""
    case(f"ce/prob/{i}", f"L = {L33}\ny = F.cross_entropy(L, {P33}{sep}{kw})", "L", double=i == 0)
case("ce/prob/target_grad", f"L = {L33}\nP = {lit((3, 3), lo=0, hi=1)}\ny = F.cross_entropy(L, P)", "LP")
case("ce/1d", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = F.cross_entropy(x, torch.tensor(1))", "x")
case("ce/1d_none", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
     "y = F.cross_entropy(x, torch.tensor(1), reduction='none')", "x")
case("ce/1d_prob", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
     "y = F.cross_entropy(x, torch.tensor([0.2, 0.3, 0.5]))", "x")
case("ce/1d_ls", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
     "y = F.cross_entropy(x, torch.tensor(2), label_smoothing=0.1)", "x")
case("ce/all_ignored", f"L = {L33}\ny = F.cross_entropy(L, torch.tensor([1, 1, 1]), ignore_index=1)", "L")
case("ce/all_ignored_sum", f"L = {L33}\ny = F.cross_entropy(L, torch.tensor([1, 1, 1]), ignore_index=1, "
     "reduction='sum')", "L")
case("ce/3d", f"X = {lit((2, 3, 4))}\ny = F.cross_entropy(X, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]))", "X")
case("ce/3d_none", f"X = {lit((2, 3, 4))}\ny = F.cross_entropy(X, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), "
     "reduction='none')", "X")
case("ce/3d_weight_ignore", f"X = {lit((2, 3, 4))}\ny = F.cross_entropy(X, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), "
     f"weight={W3}, ignore_index=0)", "X")
case("ce/4d", f"X = {lit((2, 3, 2, 2))}\ny = F.cross_entropy(X, torch.tensor([[[0, 1], [2, 0]], [[2, 2], [1, 0]]]))",
     "X")
case("ce/4d_none", f"X = {lit((2, 3, 2, 2))}\ny = F.cross_entropy(X, torch.tensor([[[0, 1], [2, 0]], [[2, 2], "
     "[1, 0]]]), reduction='none')", "X")
case("ce/3d_ls", f"X = {lit((2, 3, 4))}\ny = F.cross_entropy(X, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), "
     "label_smoothing=0.1)", "X")
case("ce/f64", f"L = {lit((4, 5), 'float64')}\ny = F.cross_entropy(L, torch.tensor([0, 4, 1, 1]))", "L", double=True)
case("ce/legacy_reduce", f"L = {L33}\ny = F.cross_entropy(L, {Y3}, reduce=False)", "L")
case("nll/3d_none", f"X = {lit((2, 3, 4))}\ny = F.nll_loss(X, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), "
     "reduction='none')", "X")
case("nll/1d_none", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
     "y = F.nll_loss(x, torch.tensor(1), reduction='none')", "x")
case("nll/of_log_softmax", f"L = {L33}\ny = F.nll_loss(F.log_softmax(L, dim=1), {Y3})", "L", double=True)
for cid, code in [
    ("err/ce_target_oob", f"y = F.cross_entropy({L33}, torch.tensor([0, 3, 1]))"),
    ("err/ce_batch", f"y = F.cross_entropy({L33}, torch.tensor([0, 1]))"),
    ("err/ce_float_target_shape", f"y = F.cross_entropy({L33}, torch.tensor([0.0, 1.0, 2.0]))"),
    ("err/nll_negative_target", f"y = F.nll_loss({L33}, torch.tensor([0, 1, -1]))"),
    ("err/ce_2d_target", f"y = F.cross_entropy({L33}, torch.tensor([[0, 1, 2]]))"),
    ("err/ce_int32_target", f"y = F.cross_entropy({L33}, torch.tensor([0, 1, 2], dtype=torch.int32))"),
    ("err/ce_long_input", "y = F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0]))"),
    ("err/ce_ls_range", f"y = F.cross_entropy({L33}, {Y3}, label_smoothing=1.5)"),
    ("err/nll_weight_size", f"y = F.nll_loss({L33}, {Y3}, weight=torch.ones(2))"),
    ("err/ce_bad_reduction", f"y = F.cross_entropy({L33}, {Y3}, reduction='bad')"),
    ("err/nll_0d", "y = F.nll_loss(torch.tensor(1.0), torch.tensor(0))"),
    ("err/ce_weight_dtype", f"y = F.cross_entropy({L33}, {Y3}, weight={W3}.double())"),
    ("err/ce_prob_ignore_index", f"y = F.cross_entropy({L33}, {P33}, ignore_index=1)"),
    ("err/ce_prob_long", "y = F.cross_entropy(torch.tensor([[1.0, 2.0]]), torch.tensor([[0, 1]]))"),
    ("err/nll_multi_target", "y = F.nll_loss(torch.randn(2, 3), torch.tensor([[1], [2]]))"),
    ("err/nll_3d_target", "y = F.nll_loss(torch.ones(2, 3, 4), torch.tensor([[1, 2, 1], [2, 0, 0]]))"),
    ("err/nll_4d_target", "y = F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 4, dtype=torch.long))"),
    ("err/nll_4d_oob", "y = F.nll_loss(torch.ones(2, 3, 4, 5), torch.full((2, 4, 5), 7))"),
    ("err/mse_shapes", "y = F.mse_loss(torch.ones(3), torch.ones(2))"),
    ("err/mse_reduction", "y = F.mse_loss(torch.ones(3), torch.ones(3), reduction='foo')"),
    ("err/mse_long", "y = F.mse_loss(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long))"),
    ("err/l1_long_mean", "y = F.l1_loss(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long))"),
    ("err/mse_weight_size", "y = F.mse_loss(torch.ones(3), torch.zeros(3), weight=torch.ones(2))"),
    ("err/bce_range", "y = F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))"),
    ("err/bce_target_range", "y = F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.5]))"),
    ("err/bce_size", "y = F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0]))"),
    ("err/bce_dtype", "y = F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1]))"),
    ("err/bce_dtype64", "y = F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0], dtype=torch.float64))"),
    ("err/bcel_size", "y = F.binary_cross_entropy_with_logits(torch.ones(3), torch.ones(2))"),
    ("err/bcel_long_target", "y = F.binary_cross_entropy_with_logits(torch.ones(3), torch.ones(3, dtype=torch.long))"),
    ("err/bcel_pos_weight_shape", ("y = F.binary_cross_entropy_with_logits(torch.tensor([0.5, 1.0]), "
      "torch.tensor([1.0, 0.0]), pos_weight=torch.tensor([[1.0, 2.0], [3.0, 4.0]]), reduction='none')")),
]:
    case(cid, code)

# --- misc ---------------------------------------------------------------------------------------------------------------

M34 = "torch.arange(12.0).reshape(3, 4).requires_grad_()"
MASK = "torch.tensor([[True, False, True, False]] * 3)"
for cid, expr, extra in [
    ("masked_fill", f"x.masked_fill({MASK}, 0.5)", ""),
    ("masked_fill/torch", "torch.masked_fill(x, x > 5, -1.0)", ""),
    ("masked_fill/tensor_value", f"x.masked_fill({MASK}, torch.tensor(2.0))", ""),
    ("masked_fill/tensor_value_grad", f"x.masked_fill({MASK}, v)", "v = torch.tensor(2.0, requires_grad=True)\n"),
    ("masked_fill/broadcast_mask", "x.masked_fill(torch.tensor([True, False, False, True]), 0.0)", ""),
    ("masked_fill/nan", f"x.masked_fill({MASK}, float('nan'))", ""),
    ("index_select", "x.index_select(1, torch.tensor([0, 2, 2]))", ""),
    ("index_select/torch_dim0", "torch.index_select(x, 0, torch.tensor([2, 0]))", ""),
    ("gather", "x.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]]))", ""),
    ("gather/torch_dim0", "torch.gather(x, 0, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]))", ""),
    ("tril", "x.tril()", ""), ("tril/neg", "torch.tril(x, -1)", ""), ("triu/1", "torch.triu(x, 1)", ""),
    ("triu/method", "x.triu(diagonal=2)", ""),
    ("diagonal", "x.diagonal()", ""), ("diagonal/offset", "torch.diagonal(x, 1)", ""),
    ("diagonal/neg_offset", "x.diagonal(offset=-1)", ""),
    ("roll", "x.roll(1, 1)", ""), ("roll/tuple", "torch.roll(x, (1, 2), (0, 1))", ""),
    ("roll/flat", "x.roll(5)", ""),
    ("lerp/scalar", "torch.lerp(x, e, 0.3)", "e = torch.ones(3, 4, requires_grad=True)\n"),
    ("lerp/scalar_big", "x.lerp(e, 0.7)", "e = torch.ones(4, requires_grad=True)\n"),
    ("lerp/tensor", "torch.lerp(x, e, w)", "e = torch.ones(3, 4)\nw = torch.full((3, 4), 0.3, requires_grad=True)\n"),
    ("hypot", "torch.hypot(x, e)", "e = torch.ones(4, requires_grad=True)\n"),
    ("atan2", "torch.atan2(x, e)", "e = torch.tensor([1.0, -1.0, 0.0, 2.0], requires_grad=True)\n"),
    ("atan2/method", "x.atan2(e)", "e = torch.ones(4, requires_grad=True)\n"),
    ("trace", "torch.trace(x)", ""),
]:
    ins = "x" + ("".join(n for n in ("e", "v", "w") if f"{n} = " in extra and "requires_grad=True" in
                         extra.split(f"{n} = ")[1].split("\n")[0]))
    case(f"misc/{cid}", f"x = {M34}\n{extra}y = {expr}", list(ins),
         double=cid in ("lerp/tensor", "hypot", "atan2", "gather", "index_select", "diagonal"))
case("misc/diagonal_3d", f"x = {lit((2, 3, 4))}\ny = x.diagonal(1, 1, 2)", "x")
case("misc/diagonal_inplace", f"x = {lit((3, 3))}\nh = x * 1\nd = h.diagonal()\nd.mul_(2)\ny = h", "x")
case("misc/hypot_zero", "x = torch.zeros(2, requires_grad=True)\ny = torch.hypot(x, torch.zeros(2))", "x")
case("misc/atan2_zero", "x = torch.zeros(2, requires_grad=True)\ne = torch.zeros(2, requires_grad=True)\n"
     "y = torch.atan2(x, e)", "xe")
case("misc/atan2_int", "y = torch.atan2(torch.tensor([1, 2]), torch.tensor([1, 1]))")
case("misc/trace_int", "y = torch.trace(torch.arange(6).reshape(2, 3))")
case("misc/masked_fill_int", "y = torch.arange(4).masked_fill(torch.tensor([True, False, True, False]), 2.7)")
case("misc/lerp_f64", f"x = {lit((3,), 'float64')}\ne = {lit((3,), 'float64')}\nw = {lit((3,), 'float64', lo=0, hi=1)}"
     "\ny = torch.lerp(x, e, w)", "xew", double=True)
for cid, code in [
    ("err/gather_oob", f"x = {M34}\ny = x.gather(1, torch.tensor([[0, 5]] * 3))"),
    ("err/gather_dims", f"x = {M34}\ny = x.gather(1, torch.tensor([0, 1]))"),
    ("err/gather_float_index", f"x = {M34}\ny = x.gather(1, torch.tensor([[0.0]]))"),
    ("err/index_select_oob", f"x = {M34}\ny = x.index_select(1, torch.tensor([4]))"),
    ("err/index_select_2d", f"x = {M34}\ny = x.index_select(1, torch.tensor([[1]]))"),
    ("err/masked_fill_long_mask", f"x = {M34}\ny = x.masked_fill(torch.tensor([1, 0, 1, 0]), 1.0)"),
    ("err/masked_fill_shape", f"x = {M34}\ny = x.masked_fill(torch.tensor([True, False]), 1.0)"),
    ("err/masked_fill_value_1d", (f"x = {M34}\ny = x.masked_fill(torch.tensor([True, False, True, False]), "
      "torch.tensor([1.0]))")),
    ("err/tril_1d", "y = torch.tril(torch.ones(3))"),
    ("err/trace_1d", "y = torch.trace(torch.ones(3))"),
    ("err/diagonal_1d", "y = torch.diagonal(torch.ones(3))"),
    ("err/roll_dim", f"x = {M34}\ny = torch.roll(x, 1, 2)"),
    ("err/roll_align", f"x = {M34}\ny = torch.roll(x, (1, 2), 1)"),
    ("err/lerp_shape", f"x = {M34}\ny = torch.lerp(x, torch.ones(5), 0.5)"),
    ("err/lerp_int", "y = torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)"),
    ("err/hypot_int", "y = torch.hypot(torch.tensor([3, 2]), torch.tensor([4, 1]))"),
    ("err/hypot_number", "y = torch.hypot(torch.ones(2), 2)"),
]:
    case(cid, code)


# --- empty tensors ------------------------------------------------------------------------------------------------------

for cid, code, ins in [
    ("mm_inner0", "a = torch.ones(2, 0, requires_grad=True)\nb = torch.ones(0, 3, requires_grad=True)\ny = a @ b", "ab"),
    ("matmul_batch0", ("a = torch.ones(0, 2, 3, requires_grad=True)\nb = torch.ones(3, 4, requires_grad=True)\n"
      "y = a @ b"), "ab"),
    ("norm", "x = torch.zeros(0, requires_grad=True)\ny = x.norm()", "x"),
    ("logsumexp", "x = torch.zeros(0, requires_grad=True)\ny = x.logsumexp(0)", "x"),
    ("softmax", "x = torch.zeros(0, 3, requires_grad=True)\ny = F.softmax(x, dim=1)", "x"),
    ("prod", "x = torch.zeros(0, requires_grad=True)\ny = x.prod()", "x"),
    ("cumsum", "x = torch.zeros(2, 0, requires_grad=True)\ny = x.cumsum(1)", "x"),
    ("amax_dim", "x = torch.zeros(0, 3, requires_grad=True)\ny = x.amax(1)", "x"),
    ("var", "x = torch.zeros(0, requires_grad=True)\ny = x.var()", "x"),
    ("mse", "x = torch.zeros(0, requires_grad=True)\ny = F.mse_loss(x, torch.zeros(0))", "x"),
    ("ce", "x = torch.zeros(0, 3, requires_grad=True)\ny = F.cross_entropy(x, torch.zeros(0, dtype=torch.long))",
     "x"),
]:
    case(f"empty/{cid}", code, ins)

# --- saved tensors and version counters ------------------------------------------------------------------------------

for cid, code, ins in [
    ("mm_input_modified", f"x = {lit((2, 3))}\nw = {lit((3, 2))}\na = x * 1\ny = a @ w\na.add_(1)", "xw"),
    ("mm_input_modified_no_grad_other", (f"x = {lit((2, 3))}\nw = {lit((3, 2), rg=False)}\na = x * 1\ny = a @ w\n"
      "a.add_(1)"), "x"),
    ("mm_weight_modified_no_grad_input", (f"x = {lit((2, 3), rg=False)}\nw = {lit((3, 2))}\nv = w * 1\ny = x @ v\n"
      "v.mul_(2)"), "w"),
    ("softmax_output_modified", f"x = {lit((3,))}\nh = F.softmax(x, 0)\nh.mul_(2)\ny = h", "x"),
    ("log_softmax_output_modified", f"x = {lit((3,))}\nh = F.log_softmax(x, 0)\ny = h * 1\nh.add_(1)", "x"),
    ("norm_output_modified", f"x = {lit((3,))}\nn = x.norm()\ny = n * 1\nn.add_(1)", "x"),
    ("max_indices_modified", f"x = {lit((2, 3))}\nv, i = x.max(1)\ni.add_(0)\ny = v", "x"),
    ("prod_input_modified", f"x = {lit((3,))}\nh = x * 1\ny = h.prod()\nh.mul_(1)", "x"),
    ("var_input_modified", f"x = {lit((3,))}\nh = x * 1\ny = h.var()\nh.mul_(1)", "x"),
    ("cumsum_input_modified", f"x = {lit((3,))}\nh = x * 1\ny = h.cumsum(0)\nh.mul_(2)", "x"),
    ("gelu_input_modified", f"x = {lit((3,))}\nh = x * 1\ny = F.gelu(h)\nh.mul_(2)", "x"),
    ("masked_fill_mask_modified",
     f"x = {lit((3,))}\nm = torch.tensor([True, False, True])\ny = x.masked_fill(m, 0.0)\nm.fill_(False)", "x"),
    ("mse_target_modified", f"x = {lit((3,))}\nt = {lit((3,), rg=False)}\ny = F.mse_loss(x, t)\nt.add_(1)", "x"),
    ("bce_weight_modified", ("p = torch.tensor([0.2, 0.7], requires_grad=True)\nw = torch.tensor([1.0, 2.0])\n"
      "y = F.binary_cross_entropy(p, torch.tensor([0.0, 1.0]), weight=w)\nw.mul_(2)"), "p"),
    ("diagonal_view_version", f"x = {lit((3, 3))}\nh = x * 1\nd = h.diagonal()\ny = d.exp()\nh.add_(1)", "x"),
]:
    case(f"ver/{cid}", code, ins)

# --- recording ----------------------------------------------------------------------------------------------------------------


_NONLEAF = re.compile(r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed")


@contextlib.contextmanager
def torch_warnings():
    kinds: list = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield kinds
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning)):
            continue
        kinds.append("non_leaf_grad" if _NONLEAF.search(str(w.message)) else "other")


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
        exp = run_case(c, torch, F, torch_error_kind, torch_warnings)
        out.append(dict(c, expect=exp))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"recorded {len(out)} cases with torch {torch.__version__} -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
