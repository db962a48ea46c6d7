"""RunResult -> the ``gradcli.run/1`` JSON object of SPEC §5 (plain dicts and lists).

Values follow PyTorch's ``Tensor.tolist()``: a float32 element becomes the
Python float holding exactly the float32 value (``float(np.float32(x))``),
ints stay ints, bools stay bools, a 0-d tensor gives a bare number.  Non-finite
numbers are the strings ``"nan"``, ``"inf"``, ``"-inf"``.  A tensor with more
than ``max_elements`` elements gives ``{"truncated": true, "shape", "min",
"max", "mean"}`` instead of its values.  ``grad`` is read from the raw
``_grad`` slot so that building the JSON records no non-leaf warning.
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from .options import DEFAULT_JSON_MAX_ELEMENTS

__all__ = ["SCHEMA", "run_document", "tensor_record", "tensor_values", "dtype_name", "grad_fn_name", "error_record",
           "backward_record"]

SCHEMA = "gradcli.run/1"


def _finite_or_text(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def tensor_values(arr: np.ndarray, max_elements: int = DEFAULT_JSON_MAX_ELEMENTS) -> Any:
    """The JSON form of an array's values: nested lists (or a bare scalar for 0-d).

    Iterative (numpy's C ``tolist``); non-finite floats are replaced through an
    object array, never by walking the nested lists in Python.
    """
    arr = np.asarray(arr)
    if arr.size > max_elements:
        return _summary(arr)
    if arr.dtype.kind == "f":
        finite = np.isfinite(arr)
        if not finite.all():
            obj = arr.astype(object)
            obj[np.isnan(arr)] = "nan"
            obj[np.isposinf(arr)] = "inf"
            obj[np.isneginf(arr)] = "-inf"
            return obj.tolist()  # astype(object) already made Python floats
    return arr.tolist()


def _summary(arr: np.ndarray) -> dict:
    as_float = arr.astype(np.float64) if arr.dtype.kind != "f" else arr
    if arr.dtype.kind == "b":
        lo, hi = bool(arr.min()), bool(arr.max())
    elif arr.dtype.kind in "iu":
        lo, hi = int(arr.min()), int(arr.max())
    else:
        lo, hi = float(arr.min()), float(arr.max())
    mean = float(np.mean(as_float, dtype=np.float64))
    return {
        "truncated": True,
        "shape": [int(s) for s in arr.shape],
        "min": _finite_or_text(lo),
        "max": _finite_or_text(hi),
        "mean": _finite_or_text(mean),
    }


def dtype_name(t: Any) -> str:
    """'float32' for a tensor of torch.float32 (``t.dtype.name`` or ``str(t.dtype)``)."""
    dt = t.dtype
    name = getattr(dt, "name", None)
    if isinstance(name, str):
        return name
    return str(dt).replace("torch.", "")


def grad_fn_name(t: Any) -> Optional[str]:
    """The class name of ``t.grad_fn`` ('MulBackward0', 'AccumulateGrad', ...) or None.

    None also when the tensor's history cannot be read: a view made in no_grad mode or by a multi-output op
    whose base was then modified in place, where PyTorch raises on ``t.grad_fn`` (the oracle records such a
    tensor the same way: no grad_fn, a leaf).
    """
    from ..errors import GradcliError

    try:
        fn = t.grad_fn
    except GradcliError:
        return None
    return None if fn is None else type(fn).__name__


def raw_grad(t: Any) -> Any:
    """The tensor's ``.grad`` without the non-leaf warning that reading ``t.grad`` records."""
    return getattr(t, "_grad", None)


def _array(t: Any) -> np.ndarray:
    return np.asarray(t._data)


def tensor_record(name: str, t: Any, max_elements: int = DEFAULT_JSON_MAX_ELEMENTS) -> dict:
    """One entry of ``tensors`` (SPEC §5)."""
    grad = raw_grad(t)
    return {
        "name": name,
        "shape": [int(s) for s in t.shape],
        "dtype": dtype_name(t),
        "requires_grad": bool(t.requires_grad),
        "is_leaf": grad_fn_name(t) is None,
        "grad_fn": grad_fn_name(t),
        "retains_grad": bool(t.retains_grad),
        "data": tensor_values(_array(t), max_elements),
        "grad": None if grad is None else tensor_values(_array(grad), max_elements),
    }


def run_document(result: Any, max_elements: int = DEFAULT_JSON_MAX_ELEMENTS) -> dict:
    """The whole ``gradcli.run/1`` object for a RunResult, keys in SPEC order."""
    err = result.error
    return {
        "schema": SCHEMA,
        "file": result.file,
        "ok": bool(result.ok),
        "stdout": result.stdout,
        "tensors": _explained([tensor_record(name, t, max_elements) for name, t in result.tensors], result),
        "warnings": [
            {"kind": w.kind, "line": w.line, "message": w.message} for w in result.warnings
        ],
        "error": None if err is None else error_record(err),
        "inputs": [{"name": i["name"], "source": i["source"], "value": i["text"]}
                   for i in getattr(result, "inputs", None) or ()],
        "backward": backward_record(getattr(result, "backward", None)),
        **_nonfinite(result),
    }


def _nonfinite(result: Any) -> dict:
    """``forward_nonfinite``, present when anomaly mode was on during the run: the first forward op that made a
    NaN and an inf (autograd/anomaly.py), each ``{kind, line, col, op, node, inputs, output, count, numel,
    inputs_had, text}``."""
    origins = getattr(result, "forward_nonfinite", None)
    if origins is None:
        return {}
    from ..autograd.anomaly import origin_text

    return {"forward_nonfinite": [{**o, "text": origin_text(o)} for o in origins]}


def error_record(err: Any) -> dict:
    """``error`` of SPEC §5: ``{kind, line, col, message, hint, torch_message}``, and ``related`` when there is
    a story."""
    return {
        "kind": err.kind,
        "line": err.line,
        "col": err.col,
        "message": err.message,
        "hint": err.hint or "",
        "torch_message": getattr(err, "torch_message", None),
        **_related(err),
    }


def backward_call(bw: dict) -> str:
    """The call gradcli made after the file, as the file would write it: ``z.backward(retain_graph=True)``."""
    o = bw.get("options") or {}
    args = []
    if o.get("gradient") is not None:
        g = o["gradient"]
        args.append(f"gradient=torch.ones_like({bw['target']})" if g.strip() == "ones" else f"gradient={g.strip()}")
    if o.get("retain_graph"):
        args.append("retain_graph=True")
    if o.get("create_graph"):
        args.append("create_graph=True")
    if o.get("inputs"):
        args.append("inputs=[" + ", ".join(o["inputs"]) + "]")
    return f"{bw['target']}.backward({', '.join(args)})"


def backward_record(bw: Optional[dict]) -> Optional[dict]:
    """``backward``: the backward gradcli ran after the file (None when it ran none): its target, whether
    it was the default one (``implicit``: no ``--backward``), the call and its options."""
    if bw is None:
        return None
    o = bw.get("options") or {}
    return {
        "target": bw["target"],
        "implicit": bool(bw["implicit"]),
        "call": backward_call(bw),
        "repeat": int(o.get("repeat", 1)),
        "options": {"gradient": o.get("gradient"), "inputs": o.get("inputs"),
                    "retain_graph": bool(o.get("retain_graph")), "create_graph": bool(o.get("create_graph"))},
    }


def _related(err: Any) -> dict:
    """Issue 7: ``related`` (both ends of the error's story), present when there is a story to tell."""
    related = getattr(err, "related", None) or []
    return {"related": [dict(r) for r in related]} if related else {}


def _explained(records: list, result: Any) -> list:
    """Issue 7: each tensor's ``why`` note (None when its gradient is set and not all zeros), when the
    notes were computed (``gradcli.app.why.annotate``)."""
    notes = getattr(result, "why", None)
    if notes is None:
        return records
    for rec in records:
        note = notes.get(rec["name"])
        rec["why"] = None if note is None else note.as_dict()
    return records
