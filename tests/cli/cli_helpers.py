"""Helpers of the CLI tests: case files, PyTorch-recorded expectations, a JSON comparator,
and ways to run gradcli (typer's CliRunner in-process, or the installed script).

The comparator follows the conformance rules (shared/conformance/README.md):
ok, error kind and line, warnings as a multiset of (kind, line), stdout with
trailing whitespace ignored, tensors by name and order with float tolerances
(float32 rtol 1e-5 atol 1e-6, float64 rtol 1e-10 atol 1e-12).  It is a copy,
so the tests do not depend on the shared folder.
"""

from __future__ import annotations

import collections
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

DATA = Path(__file__).resolve().parent / "data"
TOL = {"float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12)}


def case_path(name: str) -> Path:
    return DATA / name


def header_options(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0].strip()
    if first.startswith("#") and first[1:].strip().startswith("gradcli:"):
        return shlex.split(first[1:].strip()[len("gradcli:"):])
    return []


def expected(name: str) -> dict:
    return json.loads((DATA / (Path(name).stem + ".expected.json")).read_text(encoding="utf-8"))


def _flat(v: Any, out: list) -> list:
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        else:
            out.append(x)
    return out


def _close(e: Any, a: Any, dtype: str) -> bool:
    if isinstance(e, str) or isinstance(a, str) or isinstance(e, bool) or isinstance(a, bool):
        return e == a and type(e) is type(a)
    if dtype not in TOL:
        return e == a
    rtol, atol = TOL[dtype]
    return abs(e - a) <= atol + rtol * abs(e)


def _values_differ(e: Any, a: Any, dtype: str) -> bool:
    if isinstance(e, list) != isinstance(a, list):
        return True
    ef, af = _flat(e, []), _flat(a, [])
    return len(ef) != len(af) or not all(_close(x, y, dtype) for x, y in zip(ef, af))


def differences(exp: dict, act: dict) -> list[str]:
    """What differs between a PyTorch-recorded expectation and gradcli's JSON (empty = conforms)."""
    diffs = []
    if act.get("schema") != "gradcli.run/1":
        diffs.append(f"schema {act.get('schema')!r}")
    if act.get("ok") != exp["ok"]:
        diffs.append(f"ok: expected {exp['ok']}, got {act.get('ok')}")
    ee, ae = exp["error"], act.get("error")
    if (ee is None) != (ae is None):
        diffs.append(f"error: expected {ee}, got {ae}")
    elif ee is not None and (ee["kind"], ee["line"]) != (ae["kind"], ae["line"]):
        diffs.append(f"error: expected {ee['kind']}@{ee['line']}, got {ae['kind']}@{ae['line']}")
    ew = collections.Counter((w["kind"], w["line"]) for w in exp["warnings"])
    aw = collections.Counter((w["kind"], w["line"]) for w in act.get("warnings", []))
    if ew != aw:
        diffs.append(f"warnings: expected {ew}, got {aw}")

    def norm(s: str) -> str:
        return "\n".join(line.rstrip() for line in s.rstrip().split("\n"))

    if norm(exp["stdout"]) != norm(act.get("stdout", "")):
        diffs.append(f"stdout: expected {exp['stdout']!r}, got {act.get('stdout')!r}")
    en = [t["name"] for t in exp["tensors"]]
    an = [t["name"] for t in act.get("tensors", [])]
    if en != an:
        diffs.append(f"tensors: expected {en}, got {an}")
    amap = {t["name"]: t for t in act.get("tensors", [])}
    for e in exp["tensors"]:
        a = amap.get(e["name"])
        if a is None:
            continue
        for f in ("shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "retains_grad"):
            if a[f] != e[f]:
                diffs.append(f"{e['name']}.{f}: expected {e[f]!r}, got {a[f]!r}")
        if _values_differ(e["data"], a["data"], e["dtype"]):
            diffs.append(f"{e['name']}.data: expected {e['data']!r}, got {a['data']!r}")
        if (e["grad"] is None) != (a["grad"] is None) or (
                e["grad"] is not None and _values_differ(e["grad"], a["grad"], e["dtype"])):
            diffs.append(f"{e['name']}.grad: expected {e['grad']!r}, got {a['grad']!r}")
    return diffs


def gradcli_command() -> list[str]:
    """The installed ``gradcli`` script beside this interpreter (or on PATH), else ``python -m gradcli``."""
    beside = Path(sys.executable).with_name("gradcli")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("gradcli")
    return [found] if found else [sys.executable, "-m", "gradcli"]


def run_installed(args: list[str], *, cwd: Optional[Path] = None, stdin: Optional[str] = None,
                  env: Optional[dict] = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the real ``gradcli`` program in a subprocess (output piped, so not a terminal)."""
    full_env = dict(os.environ)
    for k in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        full_env.pop(k, None)
    full_env.update(env or {})
    return subprocess.run(gradcli_command() + args, cwd=cwd, input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout)
