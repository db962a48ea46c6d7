"""Run a recorded case through gradcli.lang.run.run_file and compare with its recorded JSON.

The comparison follows shared/conformance/README.md "What is compared": ok,
error kind and line, warnings as a multiset of (kind, line), stdout after
stripping trailing whitespace, and the tensors by name and order (shape, dtype,
flags, grad_fn, data/grad with tolerance).  The expectations were recorded
from PyTorch 2.13 by the oracle; nothing here comes from gradcli's own output.
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Any, Optional

from gradcli.lang.result import RunOptions

DATA = Path(__file__).parent / "data"
CASES = DATA  # case names are relative to tests/lang/data: "lang_cases/y"


def all_cases() -> list[str]:
    """The language's own recorded cases (the shared conformance suite lives in tests/conformance)."""
    found = list(DATA.glob("lang_cases/*.py"))
    return sorted(str(p.relative_to(DATA))[:-3] for p in found)


def header_options(src: str) -> list[str]:
    first = src.split("\n", 1)[0].strip()
    if first.startswith("#") and first[1:].strip().startswith("gradcli:"):
        return shlex.split(first[1:].strip()[len("gradcli:"):])
    return []


def options_from_args(args: list[str]) -> RunOptions:
    o = RunOptions()
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        if a == "--set":
            n, v = nxt.split("=", 1)
            o.sets.append((n.strip(), v))
            i += 2
        elif a == "--requires-grad":
            o.requires_grad.append(nxt)
            i += 2
        elif a == "--retain-grad":
            o.retain_grad.append(nxt)
            i += 2
        elif a == "--no-grad":
            o.no_grad = True
            i += 1
        elif a == "--backward":
            o.backward = nxt
            i += 2
        elif a == "--gradient":
            o.gradient = nxt
            i += 2
        elif a == "--inputs":
            o.inputs = [s for s in nxt.split(",") if s]
            i += 2
        elif a == "--retain-graph":
            o.retain_graph = True
            i += 1
        elif a == "--create-graph":
            o.create_graph = True
            i += 1
        elif a == "--repeat":
            o.repeat = int(nxt)
            i += 2
        elif a == "--dtype":
            o.dtype = nxt
            i += 2
        elif a == "--seed":
            o.seed = int(nxt)
            i += 2
        else:
            raise ValueError(f"option not handled by the test helper: {a}")
    return o


def _clean(v: Any) -> Any:
    if isinstance(v, list):
        return [_clean(x) for x in v]
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def tensor_record(name: str, t: Any) -> dict:
    grad = t.grad
    gf = t.grad_fn
    return {
        "name": name,
        "shape": list(t.shape),
        "dtype": t.dtype.name,
        "requires_grad": bool(t.requires_grad),
        "is_leaf": bool(t.is_leaf),
        "grad_fn": type(gf).__name__ if gf is not None else None,
        "retains_grad": bool(t.retains_grad),
        "data": _clean(t.detach().tolist()),
        "grad": _clean(grad.detach().tolist()) if grad is not None else None,
    }


def _close(a: Any, b: Any, dtype: str) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            _close(x, y, dtype) for x, y in zip(a, b)
        )
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool) or dtype not in ("float32", "float64", "float16"):
        return a == b
    rtol, atol = (1e-10, 1e-12) if dtype == "float64" else (1e-5, 1e-6)
    return abs(a - b) <= atol + rtol * abs(b)


def _strip(s: str) -> str:
    return "\n".join(line.rstrip() for line in s.split("\n")).rstrip()


def run_case(case: str) -> tuple[dict, Any]:
    from gradcli.lang.run import run_file

    path = CASES / (case + ".py")
    src = path.read_text(encoding="utf-8")
    opts = options_from_args(header_options(src))
    result = run_file(src, path.name, opts)
    return json.loads((CASES / (case + ".expected.json")).read_text(encoding="utf-8")), result


def differences(expected: dict, result: Any) -> list[str]:
    diffs: list[str] = []
    if expected["ok"] != result.ok:
        diffs.append(f"ok: expected {expected['ok']}, got {result.ok} ({result.error})")
    ee, ge = expected["error"], result.error
    if (ee is None) != (ge is None):
        diffs.append(f"error: expected {ee}, got {ge}")
    elif ee is not None:
        if ee["kind"] != ge.kind or ee["line"] != ge.line:
            diffs.append(f"error: expected {ee['kind']}@{ee['line']}, got {ge.kind}@{ge.line}: {ge.message}")
    ew = sorted((w["kind"], w["line"] if w["line"] is not None else -1) for w in expected["warnings"])
    gw = sorted((w.kind, w.line if w.line is not None else -1) for w in result.warnings)
    if ew != gw:
        diffs.append(f"warnings: expected {ew}, got {gw}")
    if _strip(expected["stdout"]) != _strip(result.stdout):
        diffs.append(f"stdout: expected {expected['stdout']!r}, got {result.stdout!r}")
    try:
        got = [tensor_record(n, t) for n, t in result.tensors]
    except Exception as e:  # engine surface missing
        return diffs + [f"tensors: cannot read: {e!r}"]
    en = [t["name"] for t in expected["tensors"]]
    gn = [t["name"] for t in got]
    if en != gn:
        diffs.append(f"tensor names: expected {en}, got {gn}")
        return diffs
    for et, gt in zip(expected["tensors"], got):
        for key in ("shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "retains_grad"):
            if et[key] != gt[key]:
                diffs.append(f"{et['name']}.{key}: expected {et[key]!r}, got {gt[key]!r}")
        for key in ("data", "grad"):
            if (et[key] is None) != (gt[key] is None):
                diffs.append(f"{et['name']}.{key}: expected {et[key]!r}, got {gt[key]!r}")
            elif et[key] is not None and not _close(gt[key], et[key], et["dtype"]):
                diffs.append(f"{et['name']}.{key}: expected {et[key]!r}, got {gt[key]!r}")
    return diffs


def check_case(case: str) -> Optional[list[str]]:
    """Differences for one case ([] = pass)."""
    expected, result = run_case(case)
    return differences(expected, result)
