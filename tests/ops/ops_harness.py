"""Run one recorded op case with a torch-like module (real PyTorch or gradcli's namespace).

The same function produces the expectation (``record_ops.py``, with PyTorch) and the observation
(``test_ops_recorded.py``, with gradcli), so both sides see the same code, cotangents and bookkeeping.

A case is ``{"id", "code", "out", "inputs", "double"}``: ``code`` is PyTorch code run with ``torch`` and ``F``
bound; ``out`` names the result (a tensor, or a ``(values, indices)`` pair); ``inputs`` name the tensors to
differentiate against; ``double`` also records second derivatives (``create_graph=True``).

The result records: ok / error kind, warnings (kinds), shape, dtype, grad_fn name, the graph (breadth first:
``"Name->next,next"``), values, indices, first-order gradients for a fixed cotangent, and with ``double``
the gradients of ``sum(grad_i * v_i)``.
"""

from __future__ import annotations

import math
import re

MESSAGE_KINDS = [
    ("second_backward", r"Trying to backward through the graph a second time"),
    ("non_scalar_backward", r"grad can be implicitly created only for scalar outputs"),
    ("no_grad_fn", r"element \d+ of tensors does not require grad and does not have a grad_fn"),
    ("grad_shape", r"Mismatch in shape: grad_output\[\d+\] has a shape of"),
    ("unused_input", r"appears to not have been used in the graph"),
    ("input_no_grad", r"One of the differentiated Tensors does not require grad"),
    ("leaf_inplace", r"a leaf Variable that requires grad is being used in an in-place operation"),
    ("inplace_modified", r"has been modified by an inplace operation"),
    ("non_leaf_requires_grad", r"you can only change requires_grad flags of leaf variables"),
    ("retain_grad_no_grad", r"can't retain_grad on Tensor that has requires_grad=False"),
    ("requires_grad_dtype", r"[Oo]nly Tensors of floating point( and complex)? dtype can require gradients"),
    ("numpy_requires_grad", r"Can't call numpy\(\) on Tensor that requires grad"),
    ("item_non_scalar", r"cannot be converted to Scalar"),
    ("detach_view", r"Can't detach views in-place"),
]

SHAPE_PATTERNS = re.compile(
    r"The size of tensor a \(\d+\) must match the size of tensor b"
    r"|shapes cannot be multiplied"
    r"|is invalid for input of size"
    r"|size mismatch"
    r"|must match the existing size"
    r"|Sizes of tensors must match"
    r"|stack expects each tensor to be equal size"
    r"|inconsistent tensor size"
    r"|Expected size for first two dimensions of batch2 tensor"
    r"|doesn't match the broadcast shape"
    r"|are not broadcastable")


def torch_error_kind(exc: BaseException) -> str:
    """The SPEC §4 kind PyTorch's exception maps to (as shared/conformance/tools/torch_run.py maps it)."""
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    msg = str(exc)
    for kind, pat in MESSAGE_KINDS:
        if re.search(pat, msg):
            return kind
    if SHAPE_PATTERNS.search(msg):
        return "shape"
    return "runtime"


def cotangent(n: int) -> list:
    """A fixed, non-symmetric cotangent (no zeros)."""
    return [0.5 + 0.25 * ((3 * i) % 7) for i in range(n)]


def second_weights(n: int) -> list:
    return [1.0 - 0.125 * ((5 * i) % 4) for i in range(n)]


def _num(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def jsonable(x):
    """Nested lists of numbers with nan/inf as strings."""
    if isinstance(x, list):
        return [jsonable(v) for v in x]
    return _num(x)


def values(t, torch) -> list:
    """t's values as nested lists (PyTorch's efficient zero tensors, which cannot tolist(), as zeros)."""
    if t._is_zerotensor():
        return jsonable(torch.zeros(tuple(t.shape), dtype=t.dtype).tolist())
    return jsonable(t.detach().tolist())


def node_name(fn) -> str:
    name = fn.name()
    return name.replace("torch::autograd::", "")


def graph(t) -> list:
    """The grad_fn graph of t, breadth first, as ["Name->next,next", ...] (AccumulateGrad nodes not expanded)."""
    fn = t.grad_fn
    out = []
    todo = [fn]
    seen = set()
    while todo:
        f = todo.pop(0)
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        name = node_name(f)
        if name == "AccumulateGrad":
            continue
        nexts = [n for n, _ in f.next_functions]
        out.append(name + "->" + ",".join("None" if n is None else node_name(n) for n in nexts))
        todo += [n for n in nexts if n is not None]
    return out


def _dtype_name(d) -> str:
    return str(d).replace("torch.", "")


def run_case(case: dict, torch, F, error_kind, capture_warnings) -> dict:
    """Run ``case`` with the given torch-like module.

    error_kind(exc) -> kind; capture_warnings() -> a context manager yielding a list that collects the kinds
    of warnings raised inside it.
    """
    env = {"torch": torch, "F": F}
    res: dict = {}
    with capture_warnings() as warned:
        try:
            exec(case["code"], env)  # noqa: S102 - test code written by us
        except Exception as e:  # noqa: BLE001
            res = {"ok": False, "kind": error_kind(e)}
            out = None
        else:
            out = env[case.get("out", "y")]
    if out is not None:
        res = _observe(out, env, case, torch, error_kind)
        if isinstance(out, tuple):
            res["repr"] = repr(out)
        if res.get("requires_grad") and case.get("inputs") and "backward_error" not in res:
            with capture_warnings():
                res["twice"] = _twice(case, torch, F, error_kind)
    res["warnings"] = sorted(set(warned))
    return res


def _twice(case: dict, torch, F, error_kind) -> str:
    """Run the code afresh, then two backward passes without retain_graph: "ok" or the second one's error kind
    (saved tensors are freed after the first pass)."""
    env = {"torch": torch, "F": F}
    exec(case["code"], env)  # noqa: S102
    out = env[case.get("out", "y")]
    if isinstance(out, tuple):
        out = out[0]
    inputs = [env[n] for n in case["inputs"]]
    cot = torch.tensor(cotangent(out.numel()), dtype=out.dtype).reshape(tuple(out.shape))
    torch.autograd.grad(out, inputs, cot, allow_unused=True)
    try:
        torch.autograd.grad(out, inputs, cot, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        return error_kind(e)
    return "ok"


def _observe(out, env: dict, case: dict, torch, error_kind) -> dict:
    res: dict = {}
    res["ok"] = True
    if isinstance(out, tuple):
        res["indices"] = out[1].tolist()
        out = out[0]
    res["shape"] = list(out.shape)
    res["dtype"] = _dtype_name(out.dtype)
    res["requires_grad"] = bool(out.requires_grad)
    res["grad_fn"] = None if out.grad_fn is None else node_name(out.grad_fn)
    res["graph"] = graph(out)
    res["value"] = jsonable(out.detach().tolist())
    inputs = [env[n] for n in case.get("inputs", [])]
    if out.requires_grad and inputs:
        n = out.numel()
        cot = torch.tensor(cotangent(n), dtype=out.dtype).reshape(tuple(out.shape))
        double = bool(case.get("double"))
        try:
            grads = torch.autograd.grad(out, inputs, cot, allow_unused=True, create_graph=double)
        except Exception as e:  # noqa: BLE001
            res["backward_error"] = error_kind(e)
            grads = None
        if grads is not None:
            res["grads"] = [None if g is None else values(g, torch) for g in grads]
            res["grad_dtypes"] = [None if g is None else _dtype_name(g.dtype) for g in grads]
            if double:
                res["grad_fns"] = [None if g is None or g.grad_fn is None else node_name(g.grad_fn) for g in grads]
                s = None
                for g in grads:
                    if g is not None and g.requires_grad:
                        v = torch.tensor(second_weights(g.numel()), dtype=g.dtype).reshape(tuple(g.shape))
                        term = (g * v).sum()
                        s = term if s is None else s + term
                if s is None:
                    res["grads2"] = None
                else:
                    try:
                        g2 = torch.autograd.grad(s, inputs, allow_unused=True)
                        res["grads2"] = [None if g is None else values(g, torch) for g in g2]
                    except Exception as e:  # noqa: BLE001
                        res["grads2_error"] = error_kind(e)
    return res
